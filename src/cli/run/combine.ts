import { combineShardReports } from '../../core/shard-combine.ts';
import { readJsonReport } from '../../report/json-report.ts';
import { exitCodeFor } from '../exit-codes.ts';
import { checkReportTargets, printSummary, writeReports } from '../report-output.ts';

/** `tandem combine`: shard reports combined into one report and verdict; the verdict's exit code. */
export async function combineCommand(
  files: string[],
  raw: { json?: string; markdown?: string; quiet?: boolean },
): Promise<number> {
  checkReportTargets(raw);
  const partials = files.map((file) => ({ file, report: readJsonReport(file) }));
  const report = combineShardReports(partials);
  await writeReports(report, raw);
  printSummary(report, raw.quiet === true);
  return exitCodeFor(report);
}
