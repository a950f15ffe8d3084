/**
 * Reads `tandem.yml` from the organization's `.github` repository (path `.github/tandem.yml`,
 * Probot's convention) and validates it. Never throws on bad content: the caller reports it.
 */
import { parse } from 'yaml';
import { errorHeadline } from '../core/error-text.ts';
import { type OrgConfig, validateOrgConfig } from '../core/org-config.schema.ts';
import { type GitHub, httpStatus } from './octokit.ts';

export const CONFIG_REPO = '.github';
export const CONFIG_PATH = '.github/tandem.yml';

export type OrgConfigLoad =
  | { kind: 'ok'; config: OrgConfig }
  | { kind: 'missing' }
  | { kind: 'invalid'; field: string; message: string };

export async function readFileText(
  gh: GitHub,
  owner: string,
  repo: string,
  path: string,
  ref?: string,
): Promise<string | undefined> {
  try {
    const { data } = await gh.rest.repos.getContent({ owner, repo, path, ...(ref ? { ref } : {}) });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined;
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (e) {
    if (httpStatus(e) === 404) return undefined;
    throw e;
  }
}

export function parseOrgConfig(text: string): OrgConfigLoad {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    return {
      kind: 'invalid',
      field: '(root)',
      // The position, not the code frame: the config may be private, the check it lands on public.
      message: `not valid YAML: ${errorHeadline(e)}`,
    };
  }
  const r = validateOrgConfig(raw);
  return r.ok ? { kind: 'ok', config: r.config } : { kind: 'invalid', field: r.field, message: r.message };
}

export async function loadOrgConfig(gh: GitHub, org: string): Promise<OrgConfigLoad> {
  const text = await readFileText(gh, org, CONFIG_REPO, CONFIG_PATH);
  return text === undefined ? { kind: 'missing' } : parseOrgConfig(text);
}
