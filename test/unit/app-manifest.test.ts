/**
 * app.yml as Probot's setup page registers it: the webhook URL is where the App serves webhooks,
 * the events are ones an App may subscribe to, the permissions are the least that work.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveManifest, resolveManifestInSetup } from '../../src/app/manifest.ts';
import { WEBHOOK_PATH } from '../../src/app/webhooks/webhook-intake.ts';

const root = join(import.meta.dirname, '..', '..');
const appYml = readFileSync(join(root, 'app.yml'), 'utf8');

describe('app.yml', () => {
  const manifest = parse(appYml) as {
    default_events: string[];
    default_permissions: Record<string, string>;
    hook_attributes: { url: string };
  };

  it('lists only subscribable events, check_suite included', () => {
    expect(manifest.default_events).not.toContain('installation');
    expect(manifest.default_events).not.toContain('installation_repositories');
    expect(manifest.default_events).toEqual(
      expect.arrayContaining(['pull_request', 'issue_comment', 'check_run', 'check_suite']),
    );
  });

  it('asks for the least that works: comments through pull_requests: write, issues read-only, contents: write to merge', () => {
    expect(manifest.default_permissions).toMatchObject({
      checks: 'write',
      pull_requests: 'write',
      issues: 'read',
      // `/tandem merge`: GitHub's merge endpoint needs contents: write.
      contents: 'write',
    });
  });

  it("registers the App's webhook path on the setup page's origin, or on the proxy", () => {
    expect(manifest.hook_attributes.url).toBe(WEBHOOK_PATH);
    const json = JSON.stringify(manifest);
    const url = (m: string) => (JSON.parse(m) as { hook_attributes: { url: string } }).hook_attributes.url;
    expect(url(resolveManifest(json, 'https://tandem.example.com'))).toBe(
      'https://tandem.example.com/api/github/webhooks',
    );
    expect(url(resolveManifest(json, 'http://localhost:3000/', 'https://smee.io/abc'))).toBe(
      'https://smee.io/abc',
    );
  });

  it("Probot's own setup page serves the resolved manifest", async () => {
    await resolveManifestInSetup({});
    const dir = dirname(createRequire(import.meta.url).resolve('probot'));
    const { ManifestCreation } = (await import(pathToFileURL(join(dir, 'manifest-creation.js')).href)) as {
      ManifestCreation: new () => { getManifest(o: { pkg: object; baseUrl: string }): string };
    };
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const served = JSON.parse(
        new ManifestCreation().getManifest({ pkg: {}, baseUrl: 'http://127.0.0.1:3000' }),
      );
      expect(served.hook_attributes.url).toBe('http://127.0.0.1:3000/api/github/webhooks');
      expect(served.redirect_url).toBe('http://127.0.0.1:3000/probot/setup');
    } finally {
      process.chdir(cwd);
    }
  });
});
