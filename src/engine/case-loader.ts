/**
 * Reads case and suite files (YAML or JSON) and validates them. Every error names the file, the
 * field and what was expected, so `tandem eval` can exit 2 with a message a user can act on.
 */

import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { type CaseFile, caseFileSchema, isPatchTarget, workspaceName } from '../core/case.schema.ts';
import { errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import { noSuchFile } from '../core/file-errors.ts';
import { type Suite, suiteSchema } from '../core/suite.schema.ts';
import { validate } from '../core/zod-issues.ts';
import type { EvaluationInput } from './evaluate-api.ts';

async function readStructured(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(noSuchFile(file, err), file);
  }
  try {
    // YAML is a superset of JSON, so one parser serves both.
    const doc = YAML.parseDocument(text, { prettyErrors: true });
    if (doc.errors.length > 0) throw doc.errors[0];
    return doc.toJS();
  } catch (err) {
    throw new InputError(`${file}: not valid YAML/JSON: ${errorText(err)}`, file);
  }
}

export async function loadSuiteFile(file: string): Promise<Suite> {
  return validate(suiteSchema, await readStructured(file), file);
}

/** Checks that hold across fields: names unique, suite repos known, workspace folders distinct. */
function crossCheck(c: Omit<CaseFile, 'suite'>, suite: Suite, caseFile: string): void {
  const all = [...c.targets.map((t) => t.repo), ...c.context.map((r) => r.repo)];
  const folders = new Map<string, string>();
  all.forEach((repo, i) => {
    const field = i < c.targets.length ? `targets[${i}].repo` : `context[${i - c.targets.length}].repo`;
    const folder = workspaceName(repo);
    const other = folders.get(folder);
    if (other !== undefined) {
      throw new InputError(
        `${caseFile}: field "${field}": "${repo}" would share the workspace folder "${folder}" with "${other}"`,
        caseFile,
        field,
      );
    }
    folders.set(folder, repo);
  });
  const known = (name: string) => all.includes(name) || [...folders.keys()].includes(name);
  for (const key of Object.keys(suite.prepare)) {
    if (!known(key)) {
      throw new InputError(
        `suite "${suite.name}": field "prepare.${key}": no repository "${key}" in the case (have: ${all.join(', ')})`,
        caseFile,
        `prepare.${key}`,
      );
    }
  }
  suite.wiring.forEach((w, i) => {
    for (const field of ['into', 'repo'] as const) {
      if (known(w[field])) continue;
      throw new InputError(
        `suite "${suite.name}": field "wiring[${i}].${field}": no repository "${w[field]}" in the case (have: ${all.join(', ')})`,
        caseFile,
        `wiring[${i}].${field}`,
      );
    }
  });
  suite.tests.forEach((g, i) => {
    if (g.repo && !known(g.repo)) {
      throw new InputError(
        `suite "${suite.name}": field "tests[${i}].repo": no repository "${g.repo}" in the case (have: ${all.join(', ')})`,
        caseFile,
        `tests[${i}].repo`,
      );
    }
  });
}

/** Loads a case file and its suite into the engine's input. */
export async function loadCase(caseFile: string): Promise<EvaluationInput> {
  const abs = path.resolve(caseFile);
  const caseDir = path.dirname(abs);
  const raw = await readStructured(abs);
  // An inline suite is validated on its own so its errors name `suite.tests[0]…`, not just `suite`.
  const inline =
    isRecord(raw) && isRecord(raw.suite) ? validate(suiteSchema, raw.suite, caseFile, 'suite') : undefined;
  const parsed = validate(caseFileSchema, inline ? { ...(raw as object), suite: 'inline' } : raw, caseFile);
  let suite: Suite;
  let suiteDir: string;
  if (inline) {
    suite = inline;
    suiteDir = caseDir;
  } else if (typeof parsed.suite === 'string') {
    const suitePath = path.resolve(caseDir, parsed.suite);
    // A suite that is not there is the case file's fault: name its `suite` field, not ENOENT.
    const suiteThere = await access(suitePath).then(
      () => true,
      () => false,
    );
    if (!suiteThere)
      throw new InputError(
        `${caseFile}: field "suite": no suite file at ${suitePath} (the path is relative to the case file)`,
        caseFile,
        'suite',
      );
    suite = await loadSuiteFile(suitePath);
    suiteDir = path.dirname(suitePath);
  } else {
    suite = parsed.suite;
    suiteDir = caseDir;
  }
  const { suite: _ignored, ...rest } = parsed;
  const caseSpec = {
    ...rest,
    // Local paths in `url` are relative to the case file, like every other path in it.
    targets: rest.targets.map((t) => ({ ...t, url: resolveUrl(t.url, caseDir) })),
    context: rest.context.map((r) => ({ ...r, url: resolveUrl(r.url, caseDir) })),
  };
  crossCheck(caseSpec, suite, caseFile);
  for (const [i, t] of caseSpec.targets.entries()) {
    if (isPatchTarget(t)) {
      const p = path.resolve(caseDir, t.patch);
      let text: string;
      try {
        text = await readFile(p, 'utf8');
      } catch {
        throw new InputError(
          `${caseFile}: field "targets[${i}].patch": cannot read patch file ${p}`,
          caseFile,
          `targets[${i}].patch`,
        );
      }
      // A target whose patch changes nothing is no change to judge: the case is wrong.
      if (text.trim() === '')
        throw new InputError(
          `${caseFile}: field "targets[${i}].patch": patch file ${p} is empty`,
          caseFile,
          `targets[${i}].patch`,
        );
    }
  }
  return { caseFile: caseSpec, suite, suiteDir, caseDir };
}

function resolveUrl(url: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/]+@[^/]+:/.test(url)) return url;
  return path.resolve(base, url);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
