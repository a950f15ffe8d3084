import { z } from 'zod';
import { datasetNamesSchema } from './dataset-names.ts';
import { MEMORY_SIZE, MIN_SANDBOX_MEMORY, parseMemory } from './memory-size.ts';
import { defaultPrepareNetwork, prepareNetworkSchema } from './prepare-egress.ts';

/**
 * A path the suite gives relative to a folder Tandem owns (the suite's, a repository's,
 * $TANDEM_RESULTS): never absolute, never climbing out with `..` (issue 8).
 */
const confinedPath = z
  .string()
  .min(1)
  .refine((p) => !/^([/\\]|[A-Za-z]:)/.test(p), 'expected a relative path, not an absolute one')
  .refine((p) => !p.split(/[/\\]/).includes('..'), 'expected a path that stays inside its folder (no "..")');

const commandSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error: 'expected a shell command or a list of them',
});

/** Per repository, run once per repository state with network: dependency installs. */
export const prepareSchema = z
  .object({
    run: commandSchema,
    /**
     * Files the install depends on (e.g. package.json, package-lock.json). States whose key files
     * are identical share one prepared dependency folder; without them the key is the whole tree.
     */
    key_files: z.array(confinedPath).optional(),
    /** Folders the install creates; they are shared read-only with every configuration. */
    outputs: z
      .array(
        confinedPath.refine(
          (p) => p.replace(/[/\\.]/g, '') !== '',
          'expected a folder inside the repository',
        ),
      )
      .default(['node_modules']),
    timeout: z.number().positive().default(900),
    /**
     * Branches whose base states may share prepared folders (by `key_files`) and the download
     * cache: a base commit on none of them is prepared like a PR head. Default: the repository's
     * default branch. `[]` shares nothing.
     */
    trusted_bases: z
      .array(
        z
          .string()
          .regex(/^(?!-)(?!.*\.\.)[^\s~^:?*[\\]+$/, 'expected a branch name like "main" or "release/2.x"'),
      )
      .optional(),
    /** What the commands may reach: the allowed registries only (core/prepare-egress.ts). */
    network: prepareNetworkSchema.default(defaultPrepareNetwork),
  })
  .strict();

export const resultFormatSchema = z.enum(['junit', 'tap', 'go-test-json', 'jest-json', 'vitest-json']);

export const testGroupSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'expected a group name of letters, digits, "_", "." or "-"')
      .refine((n) => n !== '.' && n !== '..', 'expected a group name, not "." or ".."'),
    /** The repository this group tests (owner/name as in the case); enables per-repo metrics. */
    repo: z.string().min(1).optional(),
    /** Hidden files or folders (relative to the suite file) placed at $TANDEM_HIDDEN. */
    files: z.array(confinedPath).default([]),
    run: z.string().min(1),
    results: z
      .object({
        format: resultFormatSchema,
        /** Relative to $TANDEM_RESULTS. */
        path: confinedPath,
      })
      .strict(),
    /** Seconds. */
    timeout: z.number().positive().default(300),
    /** Benchmark mode: how this runner's tests are named in a dataset's lists (core/dataset-names.ts). */
    dataset_names: datasetNamesSchema.optional(),
    /**
     * Whether the group must not see what earlier groups wrote: the repository folders, /tmp and
     * /dev/shm are restored to what setup left before it runs (Docker). Default: `groupIsolated`.
     */
    isolate: z.boolean().optional(),
  })
  .strict();

/**
 * A group *runs PR code* when it names the `repo` it tests: its command loads that repository,
 * which is PR code in every configuration that applies its PR. A group naming no repository is a
 * checker (hidden files and the image's tools, `python3 -m pytest $TANDEM_HIDDEN/…`): isolated
 * from earlier groups' writes unless the suite says `isolate: false`.
 */
export function groupIsolated(group: Pick<TestGroup, 'repo' | 'isolate'>): boolean {
  return group.isolate ?? group.repo === undefined;
}

/** A workspace-relative subfolder: no absolute paths, no `..`. */
const subfolderSchema = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').some((part) => part === '..'),
    'expected a relative path inside the repository (no leading "/", no "..")',
  );

const wiringCommon = {
  /** The consumer: the repository (owner/name as in the case) that uses the producer. */
  into: z.string().min(1),
  /** The producer, whose checkout in the configuration's state is what the consumer sees. */
  repo: z.string().min(1),
  /** Subfolder of the producer to wire (a package inside a monorepo); default its root. */
  from: subfolderSchema.optional(),
};

/** `node_modules/<name>` (under `path` of the consumer) is the producer's checkout. */
const nodeWiringSchema = z
  .object({
    ...wiringCommon,
    as: z.literal('node'),
    name: z
      .string()
      .regex(
        /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/,
        'expected an npm package name like "@acme/schema"',
      ),
    /** The consumer's package folder holding node_modules (monorepo), default its root. */
    path: subfolderSchema.optional(),
  })
  .strict();

/** The producer's folder is on PYTHONPATH, so its package imports from its checkout. */
const pythonWiringSchema = z.object({ ...wiringCommon, as: z.literal('python') }).strict();

/** A go.work beside the checkouts uses the consumer's module and the producer's. */
const goWiringSchema = z
  .object({
    ...wiringCommon,
    as: z.literal('go'),
    /** The producer's module path, as the consumer imports it. */
    name: z.string().min(1),
    /** The consumer's module folder (where its go.mod is), default its root. */
    path: subfolderSchema.optional(),
  })
  .strict();

/** The producer's checkout is mounted at `path` inside the consumer. */
const pathWiringSchema = z.object({ ...wiringCommon, as: z.literal('path'), path: subfolderSchema }).strict();

export const wiringSchema = z.discriminatedUnion(
  'as',
  [nodeWiringSchema, pythonWiringSchema, goWiringSchema, pathWiringSchema],
  { error: 'expected "as" to be one of node, python, go, path' },
);

export const limitsSchema = z
  .object({
    memory: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'expected a size like "512m" or "2g"')
      .refine(
        (m) => !MEMORY_SIZE.test(m.trim()) || parseMemory(m) >= MIN_SANDBOX_MEMORY,
        'expected at least "6m" (the sandbox cannot run in less)',
      )
      .default('1g'),
    cpus: z.number().positive().default(1),
    pids: z.number().int().positive().default(512),
    /** Seconds for one whole configuration (setup and every group). */
    configuration_timeout: z.number().positive().default(1800),
  })
  .strict();

export const suiteSchema = z
  .object({
    name: z.string().min(1),
    image: z.string().min(1),
    prepare: z.record(z.string(), prepareSchema).default({}),
    setup: z
      .array(z.object({ run: z.string().min(1), timeout: z.number().positive().default(300) }).strict())
      .default([]),
    tests: z.array(testGroupSchema).min(1, 'a suite needs at least one test group'),
    fail_to_pass: z.array(z.string()).optional(),
    pass_to_pass: z.array(z.string()).optional(),
    limits: limitsSchema.default({ memory: '1g', cpus: 1, pids: 512, configuration_timeout: 1800 }),
    /** Producer-before-consumer order of repositories; the App prints it as a merge-order note. */
    merge_order: z.array(z.string().min(1)).optional(),
    /**
     * Repositories that use each other's checkouts: in every configuration the consumer sees the
     * producer in that configuration's state (base or head), not a published package.
     */
    wiring: z.array(wiringSchema).default([]),
  })
  .strict()
  .superRefine((suite, ctx) => {
    const seen = new Set<string>();
    suite.tests.forEach((g, i) => {
      if (seen.has(g.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['tests', i, 'name'],
          message: `duplicate test group "${g.name}"`,
        });
      }
      seen.add(g.name);
    });
    const cycle = wiringCycle(suite.wiring);
    if (cycle !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['wiring', cycle],
        message: `wiring "${suite.wiring[cycle]!.into}" ← "${suite.wiring[cycle]!.repo}" closes a cycle (a repository would contain itself)`,
      });
    }
  });

/** The index of an entry that closes a cycle of consumers and producers, if any. */
function wiringCycle(wiring: Array<{ into: string; repo: string }>): number | undefined {
  const producers = (into: string) => wiring.filter((w) => w.into === into).map((w) => w.repo);
  const reaches = (from: string, to: string, seen: Set<string>): boolean => {
    if (from === to) return true;
    seen.add(from);
    return producers(from).some((p) => !seen.has(p) && reaches(p, to, seen));
  };
  const i = wiring.findIndex((w) => reaches(w.repo, w.into, new Set()));
  return i === -1 ? undefined : i;
}

export type Suite = z.infer<typeof suiteSchema>;
export type SuiteInput = z.input<typeof suiteSchema>;
export type TestGroup = z.infer<typeof testGroupSchema>;
export type PrepareSpec = z.infer<typeof prepareSchema>;
export type ResultFormat = z.infer<typeof resultFormatSchema>;
export type Wiring = z.infer<typeof wiringSchema>;

export function commandList(cmd: string | string[]): string[] {
  return Array.isArray(cmd) ? cmd : [cmd];
}
