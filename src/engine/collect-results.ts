/**
 * Turns what the sandbox saw into group results. A group that ended without its result file
 * crashed (fails as a whole, with exit code and output tail); timeouts and memory kills fail the
 * group with that reason; a result file that exists but cannot be parsed is an infrastructure
 * error for the configuration (the machinery failed, not the code).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../core/errors.ts';
import type { GroupRun, StepRun } from '../core/run.schema.ts';
import type { TestGroup } from '../core/suite.schema.ts';
import { parseResults } from './parsers/index.ts';
import { ResultParseError } from './parsers/parser.ts';
import type { ConfigurationRunOutcome, StepOutcome } from './sandbox.ts';

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
  configurationId: string,
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
    const file = path.resolve(resultsDir, group.results.path);
    if (!file.startsWith(path.resolve(resultsDir) + path.sep)) {
      throw new InfraError(
        'result-unparseable',
        `results.path of group "${group.name}" leaves $TANDEM_RESULTS`,
        {
          configuration: configurationId,
        },
      );
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      out.push({
        ...common,
        status: 'crashed',
        reason: `ended (${describeExit(step)}) without writing ${group.results.path}: ${tail(step.outputTail)}`,
      });
      continue;
    }
    if (text.trim() === '') {
      // An empty file is a runner that died before writing anything: not written, not unreadable.
      out.push({
        ...common,
        status: 'crashed',
        reason: `ended (${describeExit(step)}) leaving ${group.results.path} empty: ${tail(step.outputTail)}`,
      });
      continue;
    }
    try {
      out.push({
        ...common,
        status: 'reported',
        tests: parseResults(group.results.format, text, group.name),
      });
    } catch (err) {
      if (!(err instanceof ResultParseError)) throw err;
      throw new InfraError(
        'result-unparseable',
        `result file ${group.results.path} of group "${group.name}" is not valid ${group.results.format}: ${err.message}`,
        { configuration: configurationId },
      );
    }
  }
  return out;
}

function describeExit(s: StepOutcome): string {
  if (s.timedOut) return 'timed out';
  if (s.oomKilled) return 'out of memory';
  return s.exitCode === null ? 'killed' : `exit ${s.exitCode}`;
}
