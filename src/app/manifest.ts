/**
 * The App manifest Probot's setup page registers (app.yml). Probot fills `hook_attributes.url`
 * with `<origin>/` — which the App does not serve (it serves `/api/github/webhooks`), so no
 * webhook would ever arrive — and app.yml cannot know the origin. So app.yml gives the webhook
 * *path* (`hook_attributes.url: /api/github/webhooks`) and `resolveManifest` turns it into an
 * absolute URL at registration: on the setup page's origin, or on WEBHOOK_PROXY_URL (a smee
 * channel forwarding to that path) when one is set.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

const manifestSchema = z
  .object({ hook_attributes: z.object({ url: z.string() }).passthrough().optional() })
  .passthrough();

/** The manifest JSON with a path-only webhook URL made absolute. */
export function resolveManifest(json: string, baseUrl: string, proxyUrl?: string): string {
  const manifest = manifestSchema.parse(JSON.parse(json));
  const url = manifest.hook_attributes?.url;
  if (!url?.startsWith('/')) return json;
  const absolute = proxyUrl || new URL(url, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  return JSON.stringify({ ...manifest, hook_attributes: { ...manifest.hook_attributes, url: absolute } });
}

interface ManifestCreationClass {
  prototype: { getManifest(options: { baseUrl: string }): string };
}

/**
 * Makes Probot's setup page register the resolved manifest. Probot exports no hook for this,
 * so its ManifestCreation is wrapped (located from the installed package, as its `exports`
 * hide it); call before `run()` in setup mode only.
 */
export async function resolveManifestInSetup(env: NodeJS.ProcessEnv): Promise<void> {
  const probotDir = dirname(createRequire(import.meta.url).resolve('probot'));
  const mod = (await import(pathToFileURL(join(probotDir, 'manifest-creation.js')).href)) as {
    ManifestCreation: ManifestCreationClass;
  };
  const proto = mod.ManifestCreation.prototype;
  const original = proto.getManifest;
  proto.getManifest = function (this: unknown, options: { baseUrl: string }) {
    return resolveManifest(original.call(this, options), options.baseUrl, env.WEBHOOK_PROXY_URL);
  };
}
