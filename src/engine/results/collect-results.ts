/**
 * Turns what the sandbox saw into group results. A group that ended without a usable result file
 * crashed (fails as a whole, with exit code and output tail); timeouts and memory kills fail the
 * group with that reason. Result files are written by the code under test, so one that is
 * refused (a link, a FIFO, a device, too big) or cannot be parsed fails its group too, with
 * Tandem's own reason: never an infrastructure error, and never quoting the file's bytes (a PR
 * could make a parse error spell out a hidden file).
 */
import type { GroupRun, StepRun } from '../../core/run.schema.ts';
import type { TestGroup } from '../../core/suite.schema.ts';
import type { ConfigurationRunOutcome, StepOutcome } from '../sandbox/sandbox.ts';
import { parseResults } from './parsers/index.ts';
import { defaultResultFileLimits, type ResultFileLimits, readResultFile } from './result-file.ts';

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

export async function collectGroups(
  groups: readonly TestGroup[],
  outcome: ConfigurationRunOutcome,
  resultsDir: string,
  limits: ResultFileLimits = defaultResultFileLimits(),
): Promise<GroupRun[]> {
  const failedSetup = outcome.setup.find((s) => s.exitCode !== 0 && !s.notRun);
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
    if (step.oomKilled) {
      out.push({ ...common, status: 'oom', reason: 'killed for exceeding the memory limit' });
      continue;
    }
    const rel = group.results.path;
    const read = await readResultFile(resultsDir, rel, limits);
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
      out.push({
        ...common,
        status: 'reported',
        tests: parseResults(group.results.format, read.text, group.name),
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

function describeExit(s: StepOutcome): string {
  if (s.timedOut) return 'timed out';
  if (s.oomKilled) return 'out of memory';
  return s.exitCode === null ? 'killed' : `exit ${s.exitCode}`;
}
