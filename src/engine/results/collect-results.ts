/**
 * Turns what the sandbox saw into group results. A group that ended without a usable result file
 * crashed (fails as a whole, with exit code and output tail); timeouts and memory kills fail the
 * group with that reason. Result files are written by the code under test, so one that is
 * refused (a link, a FIFO, a device, too big) or cannot be parsed fails its group too, with
 * Tandem's own reason: never an infrastructure error, and never quoting the file's bytes (a PR
 * could make a parse error spell out a hidden file).
 */
import type { GroupRun, StepRun, TestResult } from '../../core/run.schema.ts';
import type { TestGroup } from '../../core/suite.schema.ts';
import { brokenGroupReason } from '../../core/unrunnable-tests.ts';
import type { ConfigurationRunOutcome, StepOutcome } from '../sandbox/sandbox.ts';
import { parseResults } from './parsers/index.ts';

const TAIL_IN_REASON = 1200;

function tail(text: string, n = TAIL_IN_REASON): string {
  return text.length > n ? `…${text.slice(-n)}` : text;
}

export function toStepRun(s: StepOutcome): StepRun {
  return {
    name: s.name,
    exitCode: s.exitCode,
    durationMs: s.durationMs,
    timedOut: s.timedOut,
    oomKilled: s.oomKilled,
    ...(s.outputTail ? { outputTail: s.outputTail } : {}),
  };
}

/**
 * Each group's result file is the one the sandbox took out of that group's own results folder
 * right after its step (results/group-results.ts): nothing another group or setup wrote counts.
 */
export function collectGroups(groups: readonly TestGroup[], outcome: ConfigurationRunOutcome): GroupRun[] {
  const failedSetup = outcome.setup.find((s) => s.exitCode !== 0 && !s.notRun);
  const lost = outcome.containerLost;
  const out: GroupRun[] = [];
  for (const [i, group] of groups.entries()) {
    const step = outcome.tests[i];
    const common = {
      name: group.name,
      ...(group.repo ? { repo: group.repo } : {}),
      exitCode: step?.exitCode ?? null,
      durationMs: step?.durationMs ?? 0,
      ...(step?.outputTail ? { outputTail: step.outputTail } : {}),
      tests: [],
    };
    if (!step || step.notRun) {
      const reason = failedSetup
        ? `setup step "${failedSetup.name}" failed (${describeExit(failedSetup)}): ${tail(failedSetup.outputTail, 600)}`
        : lost
          ? `the container stopped during "${lost.step}" before this group ran`
          : outcome.timedOut
            ? 'the configuration ran past its timeout before this group ran'
            : 'the run stopped before this group ran';
      out.push({ ...common, status: failedSetup ? 'setup-failed' : 'not-run', reason });
      continue;
    }
    if (step.timedOut) {
      out.push({ ...common, status: 'timeout', reason: `timed out after ${group.timeout}s` });
      continue;
    }
    if (step.containerLost) {
      out.push({ ...common, status: 'crashed', reason: step.containerLost });
      continue;
    }
    if (step.oomKilled) {
      out.push({ ...common, status: 'oom', reason: 'killed for exceeding the memory limit' });
      continue;
    }
    const rel = group.results.path;
    const read = step.resultFile ?? { kind: 'missing' };
    if (read.kind === 'missing') {
      out.push({
        ...common,
        status: 'crashed',
        reason: `ended (${describeExit(step)}) without writing ${rel}: ${tail(step.outputTail)}`,
      });
      continue;
    }
    if (read.kind === 'refused') {
      out.push({ ...common, status: 'crashed', reason: `result file refused: ${read.reason}` });
      continue;
    }
    if (read.text.trim() === '') {
      // An empty file is a runner that died before writing anything: not written, not unreadable.
      out.push({
        ...common,
        status: 'crashed',
        reason: `ended (${describeExit(step)}) leaving ${rel} empty: ${tail(step.outputTail)}`,
      });
      continue;
    }
    try {
      const tests = parseResults(group.results.format, read.text, group.name);
      const broken = brokenGroupReason(tests, step.exitCode);
      if (broken) {
        // Its failures of a build, load or collection stay: they carry what the runner said.
        out.push({ ...common, status: 'broken', reason: broken, tests });
        continue;
      }
      out.push({
        ...common,
        status: 'reported',
        ...(contradicts(step, tests) ? { failedExitAllPassed: true } : {}),
        tests,
      });
    } catch {
      // Whatever the parser says quotes the file: Tandem's words only.
      out.push({
        ...common,
        status: 'crashed',
        reason: `result file ${rel} is not valid ${group.results.format}; Tandem could not read it`,
      });
    }
  }
  return out;
}

/**
 * The command failed, yet every test its file names passed: the file may not be this run's
 * (or the runner lied). Flagged in the report; the group still grades by its file.
 */
function contradicts(step: StepOutcome, tests: readonly TestResult[]): boolean {
  return step.exitCode !== 0 && tests.length > 0 && tests.every((t) => t.status === 'passed');
}

function describeExit(s: StepOutcome): string {
  if (s.timedOut) return 'timed out';
  if (s.oomKilled) return 'out of memory';
  return s.exitCode === null ? 'killed' : `exit ${s.exitCode}`;
}
