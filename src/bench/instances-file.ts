/**
 * Loads an instances file (JSONL or a JSON list): every row validated — Tandem's
 * multi-repository shape, a SWE-bench row or a Multi-SWE-bench row, as published — its suite
 * loaded (the row's `suite`, relative to the instances file or inline, else the suite map's entry
 * for its repository and version), local URLs resolved against the file's folder. Errors name
 * the file, the line (or list index) and the field; a row no suite covers is refused naming the
 * row and its repository.
 */

import path from 'node:path';
import type { z } from 'zod';
import {
  type BenchInstance,
  benchInstanceSchema,
  isSweBenchRow,
  type SweBenchRow,
  sweBenchRowSchema,
  sweBenchRowToInstance,
} from '../core/bench-instance.schema.ts';
import { findSuite } from '../core/bench-suite-map.schema.ts';
import { workspaceName } from '../core/case.schema.ts';
import { errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import {
  isMultiSweBenchRow,
  multiSweBenchRowSchema,
  multiSweBenchRowToInstance,
} from '../core/multi-swe-bench-row.schema.ts';
import { type Suite, suiteSchema } from '../core/suite.schema.ts';
import { validate } from '../core/zod-issues.ts';
import { loadSuiteFile } from '../engine/case-loader.ts';
import { parseJsonLines, type Row, readText } from './json-lines.ts';
import { type LoadedSuiteMap, loadSuiteMap } from './suite-map.ts';

export interface LoadedInstance {
  instance: BenchInstance;
  suite: Suite;
  /** Folder the suite's hidden `files` are relative to. */
  suiteDir: string;
  /** Where the instance was read: `file:line`. */
  source: string;
}

export interface InstanceReading {
  /** Suite map file: which suite tests the rows of which repository (and version). */
  suites?: string;
  /** Multi-SWE-bench rows: count `n2p_tests` as FAIL_TO_PASS (`--n2p-as-f2p`). */
  n2pAsF2p?: boolean;
}

export async function loadInstances(file: string, opts: InstanceReading = {}): Promise<LoadedInstance[]> {
  const abs = path.resolve(file);
  const dir = path.dirname(abs);
  const rows = instanceRows(await readText(abs), file);
  const map = opts.suites ? await loadSuiteMap(opts.suites) : undefined;
  const out: LoadedInstance[] = [];
  const seen = new Map<string, number>();
  const suites = new Map<string, Promise<Suite>>();
  for (const { line, value, where } of rows) {
    const instance = parseInstance(value, where, map, opts);
    const prev = seen.get(instance.instance_id);
    if (prev !== undefined) {
      throw new InputError(
        `${where}: field "instance_id": "${instance.instance_id}" already appears on line ${prev}`,
        file,
        'instance_id',
      );
    }
    seen.set(instance.instance_id, line);
    checkFolders(instance, where, file);
    let suite: Suite;
    let suiteDir = dir;
    if (typeof instance.suite === 'string') {
      const suitePath = path.resolve(dir, instance.suite);
      let pending = suites.get(suitePath);
      if (!pending) {
        pending = loadSuiteFile(suitePath);
        suites.set(suitePath, pending);
      }
      suite = await pending;
      suiteDir = path.dirname(suitePath);
    } else {
      suite = instance.suite;
      if (instance.suite_dir !== undefined) suiteDir = path.resolve(dir, instance.suite_dir);
    }
    out.push({
      instance: {
        ...instance,
        repos: instance.repos.map((r) => ({ ...r, url: resolveUrl(r.url, dir) })),
        context: instance.context.map((r) => ({ ...r, url: resolveUrl(r.url, dir) })),
      },
      suite,
      suiteDir,
      source: where,
    });
  }
  if (out.length === 0) throw new InputError(`${file}: no instances (the file is empty)`, file);
  return out;
}

/** JSONL, or one JSON list of rows (`[…]`, as datasets are also published). */
function instanceRows(text: string, file: string): Array<Row & { where: string }> {
  if (!text.trimStart().startsWith('[')) {
    return parseJsonLines(text, file).map((r) => ({ ...r, where: `${file}:${r.line}` }));
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${file}: not valid JSON: ${errorText(err)}`, file);
  }
  return (doc as unknown[]).map((value, i) => ({ line: i, value, where: `${file}: [${i}]` }));
}

/**
 * One row → an instance; an inline suite is validated on its own so errors say `suite.tests[0]`.
 * Published one-repository rows without a `suite` take it from the suite map.
 */
export function parseInstance(
  value: unknown,
  where: string,
  map?: LoadedSuiteMap,
  opts: Pick<InstanceReading, 'n2pAsF2p'> = {},
): BenchInstance {
  const row =
    isRecord(value) && isRecord(value.suite) ? { ...value, suite: inlineSuite(value.suite, where) } : value;
  if (isMultiSweBenchRow(row)) {
    const m = validate(multiSweBenchRowSchema, row, where);
    const { metadata, ...fields } = multiSweBenchRowToInstance(m, {
      n2pAsFailToPass: opts.n2pAsF2p === true,
    });
    const swe = validate(
      sweBenchRowSchema,
      { ...fields, ...(isRecord(row) && row.url ? { url: row.url } : {}), ...suiteOf(row) },
      where,
    );
    const converted = sweBenchRowToInstance(swe, mappedSuite(swe, where, map));
    return validate(
      benchInstanceSchema,
      { ...converted, metadata: { ...converted.metadata, ...metadata, source: 'multi-swe-bench' } },
      where,
    );
  }
  if (isSweBenchRow(row)) {
    const swe = validate(sweBenchRowSchema, row, where);
    return validate(benchInstanceSchema, sweBenchRowToInstance(swe, mappedSuite(swe, where, map)), where);
  }
  return validate(benchInstanceSchema, row, where);
}

function suiteOf(row: unknown): { suite?: unknown } {
  return isRecord(row) && row.suite !== undefined ? { suite: row.suite } : {};
}

/** The suite map's entry for a row without its own suite; refused when there is none. */
function mappedSuite(row: SweBenchRow, where: string, map: LoadedSuiteMap | undefined) {
  if (row.suite !== undefined) return {};
  const version = row.version;
  const entry = map ? findSuite(map.map, row.repo, version) : undefined;
  if (!entry) {
    const which = `row "${row.instance_id}" (repository "${row.repo}"${version !== undefined ? `, version "${version}"` : ''})`;
    throw new InputError(
      map
        ? `${where}: ${which}: no suite in ${map.file} covers this repository${version !== undefined ? ' and version' : ''}; add an entry {repo: "${row.repo}"${version !== undefined ? `, version: "${version}"` : ''}, suite: …}`
        : `${where}: ${which}: no suite; give the row a "suite" or map repositories to suites with --suites <file>`,
      map?.file,
      'repo',
    );
  }
  return {
    suite: typeof entry.suite === 'string' ? path.resolve(map!.dir, entry.suite) : entry.suite,
    ...(typeof entry.suite === 'string' ? {} : { suite_dir: map!.dir }),
    ...(entry.url ? { url: resolveUrl(entry.url, map!.dir) } : {}),
  };
}

function inlineSuite(raw: unknown, where: string): z.input<typeof suiteSchema> {
  validate(suiteSchema, raw, where, 'suite');
  return raw as z.input<typeof suiteSchema>;
}

function checkFolders(instance: BenchInstance, where: string, file: string): void {
  const folders = new Map<string, string>();
  for (const r of [...instance.repos, ...instance.context]) {
    const folder = workspaceName(r.repo);
    const other = folders.get(folder);
    if (other) {
      throw new InputError(
        `${where}: "${r.repo}" would share the workspace folder "${folder}" with "${other}"`,
        file,
        'repos',
      );
    }
    folders.set(folder, r.repo);
  }
}

function resolveUrl(url: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/]+@[^/]+:/.test(url)) return url;
  return path.resolve(base, url);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
