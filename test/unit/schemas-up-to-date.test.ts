import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSchemas, SCHEMA_DIR } from '../../scripts/generate-schemas.ts';

type Json = Record<string, unknown>;
const read = (file: string) => readFileSync(join(SCHEMA_DIR, file), 'utf8');

describe('schema/*.json', () => {
  const generated = generateSchemas();

  it('are up to date with the zod schemas (run `npm run schema` when this fails)', () => {
    expect([...generated.keys()].sort()).toEqual([
      'bench-instance.schema.json',
      'bench-prediction.schema.json',
      'bench-report.schema.json',
      'bench-summary.schema.json',
      'case.schema.json',
      'report.schema.json',
      'suite.schema.json',
      'tandem-config.schema.json',
    ]);
    for (const [file, text] of generated) {
      expect(read(file), `schema/${file} is stale: run npm run schema`).toBe(text);
    }
  });

  it('describe what users write for cases and suites (defaults optional) and the full report', () => {
    const kase = JSON.parse(read('case.schema.json')) as Json;
    expect(kase.$id).toBe('urn:tandem:schema:case');
    expect(kase.title).toBe('Tandem case file');
    expect(kase.required).toEqual(['name', 'suite', 'targets']);
    expect(kase.additionalProperties).toBe(false);

    const suite = JSON.parse(read('suite.schema.json')) as Json;
    // `prepare`, `setup` and `limits` have defaults: optional in what users write.
    expect(suite.required).toEqual(['name', 'image', 'tests']);

    const report = JSON.parse(read('report.schema.json')) as Json & { properties: Record<string, Json> };
    expect(report.properties.schemaVersion).toMatchObject({ const: 1 });
    expect(report.required).toEqual(
      expect.arrayContaining(['verdict', 'configurations', 'tests_status', 'resolved']),
    );
  });

  it('describe benchmark instances and predictions as users write them, and the run summary', () => {
    const instance = JSON.parse(read('bench-instance.schema.json')) as Json;
    expect(instance.required).toEqual(['instance_id', 'repos', 'suite']);
    const prediction = JSON.parse(read('bench-prediction.schema.json')) as Json;
    expect(prediction.required).toEqual(['instance_id', 'model_name_or_path']);
    const summary = JSON.parse(read('bench-summary.schema.json')) as Json;
    expect(summary.required).toEqual(
      expect.arrayContaining(['total_instances', 'resolved_ids', 'error_ids', 'schema_version', 'metrics']),
    );
  });
});
