/**
 * GitHub's published OpenAPI description (`@octokit/openapi`, api.github.com, dereferenced) as a
 * validator for the stand-in's traffic: the operation is found from method and path, the
 * request body is checked against its `requestBody` schema and a JSON answer against the schema
 * of its status. The stand-in can then no longer drift from GitHub unnoticed.
 */
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Spec = { paths: Record<string, Record<string, Operation>> };

let spec: Spec | undefined;
function load(): Spec {
  spec ??= createRequire(import.meta.url)('@octokit/openapi/generated/api.github.com.deref.json') as Spec;
  return spec;
}

// OpenAPI 3.0 schemas: `nullable` is understood by Ajv; `example`, `x-github` and formats are not checked.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, discriminator: false });
const compiled = new Map<string, ValidateFunction>();

/**
 * OpenAPI 3.0.3: `nullable: true` admits null even when an `enum` does not list it (GitHub's
 * `conclusion` is such a field); Ajv checks the enum first, so null joins the enum here.
 * A typeless `nullable` becomes `anyOf: [schema, null]`, which Ajv accepts.
 */
function nullableEnums(node: unknown): void {
  if (Array.isArray(node)) for (const n of node) nullableEnums(n);
  else if (node && typeof node === 'object') {
    const o = node as { nullable?: boolean; enum?: unknown[] };
    if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum.push(null);
    // Ajv refuses `nullable` without a `type` (beside `oneOf`, `allOf`): say "this or null" instead.
    if (o.nullable === true && !('type' in o)) {
      const rest: Record<string, unknown> = { ...o };
      delete rest.nullable;
      for (const k of Object.keys(o)) delete (o as Record<string, unknown>)[k];
      Object.assign(o, { anyOf: [rest, { type: 'null' }] });
      nullableEnums(rest);
      return;
    }
    for (const v of Object.values(o)) nullableEnums(v);
  }
}

function validator(key: string, schema: object): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    nullableEnums(schema);
    v = ajv.compile(schema);
    compiled.set(key, v);
  }
  return v;
}

/** The OpenAPI path template matching a concrete path, the most literal one first. */
export function operationPath(method: string, path: string): string | undefined {
  const candidates = Object.keys(load().paths).filter((t) => {
    if (!load().paths[t]?.[method.toLowerCase()]) return false;
    // A final `{path}` may be empty: `GET …/contents/{path}` with `path: ''` lists the root.
    const pattern = t
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\\?\{[^}]+\\?\}/g, '[^/]+')
      .replace(/\/contents\/\[\^\/\]\+$/, '/contents(?:/[^/]*)?');
    const re = new RegExp(`^${pattern}$`);
    return re.test(path);
  });
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

export interface OpenApiProblem {
  where: string;
  errors: string;
}

/** Problems of one exchange against GitHub's description; empty when it conforms. */
export function checkExchange(e: {
  method: string;
  path: string;
  status: number;
  body?: unknown;
  response?: unknown;
}): OpenApiProblem[] {
  const template = operationPath(e.method, e.path);
  const where = `${e.method} ${e.path} → ${e.status}`;
  if (!template) return [{ where, errors: 'no such operation in GitHub’s OpenAPI description' }];
  const op = load().paths[template]![e.method.toLowerCase()]!;
  const out: OpenApiProblem[] = [];
  const reqSchema = op.requestBody?.content?.['application/json']?.schema;
  if (reqSchema && e.body !== undefined && e.status < 400) {
    const v = validator(`${e.method} ${template} request`, reqSchema);
    if (!v(e.body)) out.push({ where: `${where} (request)`, errors: ajv.errorsText(v.errors) });
  }
  const resSchema = op.responses?.[String(e.status)]?.content?.['application/json']?.schema;
  if (resSchema && e.response !== undefined && e.status < 400) {
    const v = validator(`${e.method} ${template} ${e.status}`, resSchema);
    if (!v(e.response)) out.push({ where: `${where} (response)`, errors: ajv.errorsText(v.errors) });
  }
  return out;
}
