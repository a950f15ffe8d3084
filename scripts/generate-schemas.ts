/**
 * Generates the JSON Schemas users point their editors at (case and suite files: what they
 * write, so `io: 'input'`, defaults optional) and the one consumers of report.json rely on
 * (`io: 'output'`, every defaulted field present). Run with `npm run schema`; the unit test
 * test/unit/schemas-up-to-date.test.ts fails when the checked-in files are stale.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { benchInstanceSchema } from '../src/core/bench-instance.schema.ts';
import { benchPredictionSchema } from '../src/core/bench-prediction.schema.ts';
import { instanceReportSchema, runSummarySchema } from '../src/core/bench-report.schema.ts';
import { caseFileSchema } from '../src/core/case.schema.ts';
import { orgConfigSchema } from '../src/core/org-config.schema.ts';
import { REPORT_SCHEMA_VERSION, reportSchema } from '../src/core/report.schema.ts';
import { suiteSchema } from '../src/core/suite.schema.ts';

export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema');

interface SchemaSpec {
  file: string;
  title: string;
  description: string;
  schema: z.ZodType;
  io: 'input' | 'output';
}

const specs: SchemaSpec[] = [
  {
    file: 'case.schema.json',
    title: 'Tandem case file',
    description:
      'A linked change to evaluate: the target PRs (branch heads or patches), context repositories and the suite.',
    schema: caseFileSchema,
    io: 'input',
  },
  {
    file: 'suite.schema.json',
    title: 'Tandem suite file',
    description: 'Evaluator-owned description of how to test the joint workspace.',
    schema: suiteSchema,
    io: 'input',
  },
  {
    file: 'tandem-config.schema.json',
    title: 'Tandem organization configuration (.github/tandem.yml)',
    description:
      "The organization's .github/tandem.yml, as the App reads it: the evaluator repository, the suites and the repositories each covers, matrix, reveal, limits, executor. Check a file with `tandem config check`.",
    schema: orgConfigSchema,
    io: 'input',
  },
  {
    file: 'report.schema.json',
    title: `Tandem report (schemaVersion ${REPORT_SCHEMA_VERSION})`,
    description:
      'The report.json an evaluation writes: verdict, graded configurations, SWE-bench-compatible fields.',
    schema: reportSchema,
    io: 'output',
  },
  {
    file: 'bench-instance.schema.json',
    title: 'Tandem benchmark instance (one line of an instances JSONL file)',
    description:
      'A multi-repository superset of a SWE-bench row: repositories with base commit, gold patch and test patch, context, suite, optional F2P/P2P lists.',
    schema: benchInstanceSchema,
    io: 'input',
  },
  {
    file: 'bench-prediction.schema.json',
    title: 'Tandem benchmark prediction',
    description:
      'SWE-bench prediction: instance_id, model_name_or_path, and model_patches (per repository) or one model_patch over the joint workspace.',
    schema: benchPredictionSchema,
    io: 'input',
  },
  {
    file: 'bench-report.schema.json',
    title: 'Tandem benchmark per-prediction report.json',
    description: "Keyed by instance id: SWE-bench's fields, Tandem's under `tandem`.",
    schema: instanceReportSchema,
    io: 'output',
  },
  {
    file: 'bench-summary.schema.json',
    title: 'Tandem benchmark run summary (<model>.<run-id>.json)',
    description: "SWE-bench's run summary fields plus the papers' metrics.",
    schema: runSummarySchema,
    io: 'output',
  },
];

/** File name → file text, deterministic (the up-to-date test compares byte for byte). */
export function generateSchemas(): Map<string, string> {
  const out = new Map<string, string>();
  for (const spec of specs) {
    const generated = z.toJSONSchema(spec.schema, { io: spec.io, target: 'draft-2020-12' }) as Record<
      string,
      unknown
    >;
    const { $schema, ...rest } = generated;
    // `$id` is a URN: the schemas are addressed by file, not served from a host we would have to own.
    const doc = {
      $schema,
      $id: `urn:tandem:schema:${spec.file.replace('.schema.json', '')}`,
      title: spec.title,
      description: spec.description,
      ...rest,
    };
    out.set(spec.file, `${JSON.stringify(doc, null, 2)}\n`);
  }
  return out;
}

function main(): void {
  for (const [file, text] of generateSchemas()) {
    writeFileSync(join(SCHEMA_DIR, file), text);
    console.log(`wrote schema/${file}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
