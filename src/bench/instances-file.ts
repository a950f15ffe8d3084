/**
 * Loads an instances file (JSONL): every row validated (multi-repository or SWE-bench shape),
 * its suite loaded (path relative to the instances file, or inline), local URLs resolved against
 * the file's folder. Errors name the file, the line and the field.
 */
import path from 'node:path';
import type { z } from 'zod';
import {
  type BenchInstance,
  benchInstanceSchema,
  isSweBenchRow,
  sweBenchRowSchema,
  sweBenchRowToInstance,
} from '../core/bench-instance.schema.ts';
import { workspaceName } from '../core/case.schema.ts';
import { InputError } from '../core/errors.ts';
import { type Suite, suiteSchema } from '../core/suite.schema.ts';
import { validate } from '../core/zod-issues.ts';
import { loadSuiteFile } from '../engine/case-loader.ts';
import { parseJsonLines, readText } from './json-lines.ts';

export interface LoadedInstance {
  instance: BenchInstance;
  suite: Suite;
  /** Folder the suite's hidden `files` are relative to. */
  suiteDir: string;
  /** Where the instance was read: `file:line`. */
  source: string;
}

export async function loadInstances(file: string): Promise<LoadedInstance[]> {
  const abs = path.resolve(file);
  const dir = path.dirname(abs);
  const rows = parseJsonLines(await readText(abs), file);
  const out: LoadedInstance[] = [];
  const seen = new Map<string, number>();
  const suites = new Map<string, Promise<Suite>>();
  for (const { line, value } of rows) {
    const where = `${file}:${line}`;
    const instance = parseInstance(value, where);
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

/** One row → an instance; an inline suite is validated on its own so errors say `suite.tests[0]`. */
export function parseInstance(value: unknown, where: string): BenchInstance {
  const row =
    isRecord(value) && isRecord(value.suite) ? { ...value, suite: inlineSuite(value.suite, where) } : value;
  if (isSweBenchRow(row)) {
    const swe = validate(sweBenchRowSchema, row, where);
    return validate(benchInstanceSchema, sweBenchRowToInstance(swe), where);
  }
  return validate(benchInstanceSchema, row, where);
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
