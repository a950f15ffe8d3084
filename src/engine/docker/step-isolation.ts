/**
 * What one configuration's steps do not share (issue 25): each step's own HOME and TMPDIR
 * (sandbox/step-scratch.ts), and for isolated groups the repository folders, /tmp and /dev/shm
 * as setup left them (workspace-snapshot.ts). The workspace root itself is not the steps' to
 * write (step-user.ts), so a group's working directory holds nothing an earlier one put there.
 */
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigurationRunSpec, Step } from '../sandbox/sandbox.ts';
import { StepScratch, scratchEnv } from '../sandbox/step-scratch.ts';
import type { ContainerExec } from './docker-exec.ts';
import { SCRATCH } from './docker-layout.ts';
import { keptPaths, needsSnapshot, restoreCommand, snapshotCommand } from './workspace-snapshot.ts';

export class StepIsolation {
  /** Each step's HOME/TMPDIR pair; setup steps share one. */
  private readonly names = new Map<Step, string>();
  private readonly made = new Set<string>();
  /** Unset: no snapshot needed; then taken, or why it could not be. */
  private snapshot:
    | { state: 'wanted' }
    | { state: 'taken' }
    | { state: 'failed'; reason: string }
    | undefined;

  private constructor(
    private readonly spec: ConfigurationRunSpec,
    private readonly scratch: StepScratch,
    /** Host folders for the container's mounts (docker-layout.ts). */
    readonly folders: { scratch: string; snapshot?: string },
  ) {
    const setup = StepScratch.folderName('setup');
    for (const s of spec.setup) this.names.set(s, setup);
    for (const [i, s] of spec.tests.entries()) this.names.set(s, StepScratch.folderName(`group-${i}`));
    if (folders.snapshot) this.snapshot = { state: 'wanted' };
  }

  /** `own`: the configuration's own host folder. */
  static async create(own: string, spec: ConfigurationRunSpec): Promise<StepIsolation> {
    const scratchDir = path.join(own, 'scratch');
    const scratch = await StepScratch.create(scratchDir);
    if (!needsSnapshot(spec)) return new StepIsolation(spec, scratch, { scratch: scratchDir });
    const snapshot = path.join(own, 'snapshot');
    await mkdir(snapshot);
    // Root's alone: steps can neither read what setup left there nor change it.
    await chmod(snapshot, 0o700);
    return new StepIsolation(spec, scratch, { scratch: scratchDir, snapshot });
  }

  /** The step's HOME and TMPDIR, named ahead (its exec may be registered before it runs). */
  env(step: Step): string[] {
    return scratchEnv(SCRATCH, this.names.get(step)!);
  }

  /**
   * Right before `step`: its HOME and TMPDIR are made; before the first test group the snapshot
   * is taken; before an isolated group after the first, the snapshot is put back. Returns why
   * the step must not run (the restore failed: it fails, never running with what it must not see).
   */
  async before(step: Step, exec: ContainerExec): Promise<string | undefined> {
    const name = this.names.get(step)!;
    if (!this.made.has(name)) {
      await this.scratch.make(name);
      this.made.add(name);
    }
    const index = this.spec.tests.indexOf(step);
    if (index < 0 || !this.snapshot) return undefined;
    const kept = keptPaths(this.spec);
    if (this.snapshot.state === 'wanted') {
      const r = await exec.asRoot(snapshotCommand(kept), 'copying what setup left');
      this.snapshot = r.ok ? { state: 'taken' } : { state: 'failed', reason: r.output.trim() };
    }
    if (index === 0 || !step.isolate) return undefined;
    if (this.snapshot.state === 'failed')
      return `tandem: could not keep what setup left for this isolated group: ${this.snapshot.reason}`;
    const r = await exec.asRoot(restoreCommand(kept), 'restoring what setup left');
    return r.ok
      ? undefined
      : `tandem: could not restore what setup left for this isolated group: ${r.output.trim()}`;
  }
}
