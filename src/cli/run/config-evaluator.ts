/**
 * `tandem config check --evaluator-dir DIR`: the files an organization's configuration names, in
 * a checkout of the evaluator repository. Every suite file loads as a suite; every hidden file
 * it lists exists; the repositories its groups, prepare steps and wiring name are ones the
 * configuration's suite covers; each image is on this Docker engine; with `executor: actions`
 * the workflow and the vendored Action it uses are there. Errors are what would fail an
 * evaluation; warnings are what may.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { workspaceName } from '../../core/case.schema.ts';
import { InputError } from '../../core/errors.ts';
import type { OrgConfig, OrgSuite } from '../../core/org-config.schema.ts';
import { sameRepo } from '../../core/repo-name.ts';
import type { Suite } from '../../core/suite.schema.ts';
import { loadSuiteFile } from '../../engine/case-loader.ts';
import { VENDORED_ACTION_DIR, VENDORED_ACTION_USES } from './action-files.ts';

export interface Finding {
  level: 'error' | 'warning';
  /** `<file>: field "<field>": <what>`, or `<file>: <what>`. */
  text: string;
}

const at = (file: string, field: string, what: string) => `${file}: field "${field}": ${what}`;

/** The images `tandem image build` makes; another `tandem/sandbox:*` tag has no builder. */
const BUILDABLE = new Map([
  ['tandem/sandbox:node20', 'node'],
  ['tandem/sandbox:python3', 'python'],
  ['tandem/sandbox:go', 'go'],
]);

export async function checkEvaluatorDir(
  config: OrgConfig,
  configFile: string,
  dir: string,
): Promise<Finding[]> {
  if (!existsSync(dir)) throw new InputError(`option --evaluator-dir: no such folder ${dir}`);
  const findings: Finding[] = [];
  const images = new Map<string, string>();
  for (const [i, orgSuite] of config.suites.entries()) {
    const file = path.join(dir, orgSuite.path);
    if (!existsSync(file)) {
      findings.push({
        level: 'error',
        text: at(
          configFile,
          `suites[${i}].path`,
          `no suite file at ${file} (the path is relative to the evaluator repository)`,
        ),
      });
      continue;
    }
    let suite: Suite;
    try {
      suite = await loadSuiteFile(file);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      findings.push({ level: 'error', text: err.message });
      continue;
    }
    findings.push(...hiddenFileFindings(suite, file), ...repoFindings(suite, orgSuite, file));
    if (!images.has(suite.image)) images.set(suite.image, file);
  }
  findings.push(...(await imageFindings(images)));
  if (config.executor === 'actions') findings.push(...(await workflowFindings(config, configFile, dir)));
  return findings;
}

function hiddenFileFindings(suite: Suite, file: string): Finding[] {
  const out: Finding[] = [];
  for (const [i, g] of suite.tests.entries())
    for (const [j, f] of g.files.entries()) {
      const abs = path.resolve(path.dirname(file), f);
      if (!existsSync(abs))
        out.push({
          level: 'error',
          text: at(
            file,
            `tests[${i}].files[${j}]`,
            `no such file or folder ${abs} (hidden files are relative to the suite file)`,
          ),
        });
    }
  return out;
}

/** Names the suite file uses for repositories must be ones this configuration's suite covers. */
function repoFindings(suite: Suite, orgSuite: OrgSuite, file: string): Finding[] {
  const covers = (name: string) => orgSuite.repos.some((r) => sameRepo(r, name) || workspaceName(r) === name);
  const have = orgSuite.repos.join(', ');
  const unknown = (field: string, name: string): Finding => ({
    level: 'error',
    text: at(file, field, `"${name}" is not a repository suite "${orgSuite.name}" covers (have: ${have})`),
  });
  const out: Finding[] = [];
  for (const key of Object.keys(suite.prepare)) if (!covers(key)) out.push(unknown(`prepare.${key}`, key));
  suite.tests.forEach((g, i) => {
    if (g.repo && !covers(g.repo)) out.push(unknown(`tests[${i}].repo`, g.repo));
  });
  suite.wiring.forEach((w, i) => {
    for (const f of ['into', 'repo'] as const)
      if (!covers(w[f])) out.push(unknown(`wiring[${i}].${f}`, w[f]));
  });
  suite.merge_order?.forEach((r, i) => {
    if (!covers(r))
      out.push({
        level: 'warning',
        text: at(
          file,
          `merge_order[${i}]`,
          `"${r}" is not a repository suite "${orgSuite.name}" covers; /tandem merge skips it`,
        ),
      });
  });
  return out;
}

/** An image missing here is a warning: the evaluator workflow or the App host may build it. */
async function imageFindings(images: Map<string, string>): Promise<Finding[]> {
  const out: Finding[] = [];
  const docker = images.size
    ? (await import('../../engine/docker/docker-client.ts')).createDockerClient()
    : undefined;
  for (const [image, file] of images) {
    const kind = BUILDABLE.get(image);
    if (image.startsWith('tandem/sandbox:') && !kind) {
      out.push({
        level: 'error',
        text: at(
          file,
          'image',
          `"${image}" is no image \`tandem image build\` makes (${[...BUILDABLE.keys()].join(', ')})`,
        ),
      });
      continue;
    }
    const hint = kind ? `\`tandem image build ${kind}\` builds it` : 'build or pull it before an evaluation';
    try {
      await docker!.getImage(image).inspect();
    } catch (err) {
      const status = (err as { statusCode?: unknown }).statusCode;
      out.push({
        level: 'warning',
        text:
          status === 404
            ? at(
                file,
                'image',
                `"${image}" is not on this Docker engine; ${hint} (the evaluator workflow or the App host needs it)`,
              )
            : at(
                file,
                'image',
                `could not ask Docker about "${image}" (${(err as Error).message}); not checked`,
              ),
      });
    }
  }
  return out;
}

/** With `executor: actions` the App dispatches a workflow there, which runs the vendored Action. */
async function workflowFindings(config: OrgConfig, configFile: string, dir: string): Promise<Finding[]> {
  const workflow = path.join(dir, '.github', 'workflows', config.actions.workflow);
  if (!existsSync(workflow))
    return [
      {
        level: 'error',
        text: at(
          configFile,
          'actions.workflow',
          `no workflow at ${workflow} (executor "actions" dispatches it)`,
        ),
      },
    ];
  const text = await readFile(workflow, 'utf8');
  if (text.includes(VENDORED_ACTION_USES) && !existsSync(path.join(dir, VENDORED_ACTION_DIR, 'action.yml')))
    return [
      {
        level: 'error',
        text: `${workflow}: uses ${VENDORED_ACTION_USES}, which is not there: run \`tandem action vendor --dir ${dir}\` and commit it`,
      },
    ];
  return [];
}
