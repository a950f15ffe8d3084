/**
 * The report a finished workflow run left: the `tandem-report` artifact, unzipped, parsed and
 * validated. Anything short of one complete report is an error whose message says what was
 * wrong and links the run: the caller turns it into an infrastructure error on every member.
 */
import { type Report, reportSchema } from '../../core/report.schema.ts';
import { describeIssues } from '../../core/zod-issues.ts';
import { REPORT_ARTIFACT } from '../../github/actions.ts';
import { unzip } from '../../github/zip.ts';
import type { GitHubPort } from '../port/github-port.ts';

export async function readRunReport(
  gh: GitHubPort,
  /** The evaluator repository, `owner/name`. */
  evaluator: string,
  run: { id: number; url: string; conclusion: string | null },
): Promise<Report> {
  const where = `the workflow run ${run.url}`;
  const zip = await gh.runArtifact(evaluator, run.id, REPORT_ARTIFACT);
  if (!zip)
    throw new Error(
      `${where} ended ${run.conclusion ?? 'unfinished'} without a \`${REPORT_ARTIFACT}\` artifact`,
    );
  let files: Map<string, Buffer>;
  try {
    files = unzip(zip);
  } catch (e) {
    throw new Error(`${where}: the \`${REPORT_ARTIFACT}\` artifact is unreadable: ${(e as Error).message}`);
  }
  const json = [...files].filter(([name]) => name.toLowerCase().endsWith('.json'));
  if (json.length !== 1)
    throw new Error(
      `${where}: the \`${REPORT_ARTIFACT}\` artifact holds ${json.length} JSON files, not one report`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(json[0]![1].toString('utf8'));
  } catch {
    throw new Error(`${where}: the \`${REPORT_ARTIFACT}\` artifact is not valid JSON`);
  }
  const parsed = reportSchema.safeParse(raw);
  if (!parsed.success) {
    const { text } = describeIssues(parsed.error);
    throw new Error(`${where}: the \`${REPORT_ARTIFACT}\` artifact is not a Tandem report (${text})`);
  }
  if (parsed.data.partial)
    throw new Error(
      `${where}: the \`${REPORT_ARTIFACT}\` artifact is a shard's partial report, not the merged one`,
    );
  return parsed.data;
}
