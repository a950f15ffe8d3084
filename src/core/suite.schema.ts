import { z } from 'zod';

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
    key_files: z.array(z.string().min(1)).optional(),
    /** Folders the install creates; they are shared read-only with every configuration. */
    outputs: z.array(z.string().min(1)).default(['node_modules']),
    timeout: z.number().positive().default(900),
  })
  .strict();

export const resultFormatSchema = z.enum(['junit', 'tap', 'go-test-json', 'jest-json', 'vitest-json']);

export const testGroupSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a group name of letters, digits, "_", "." or "-"'),
    /** The repository this group tests (owner/name as in the case); enables per-repo metrics. */
    repo: z.string().min(1).optional(),
    /** Hidden files or folders (relative to the suite file) placed at $TANDEM_HIDDEN. */
    files: z.array(z.string().min(1)).default([]),
    run: z.string().min(1),
    results: z
      .object({
        format: resultFormatSchema,
        /** Relative to $TANDEM_RESULTS. */
        path: z.string().min(1),
      })
      .strict(),
    /** Seconds. */
    timeout: z.number().positive().default(300),
  })
  .strict();

export const limitsSchema = z
  .object({
    memory: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'expected a size like "512m" or "2g"')
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
  });

export type Suite = z.infer<typeof suiteSchema>;
export type SuiteInput = z.input<typeof suiteSchema>;
export type TestGroup = z.infer<typeof testGroupSchema>;
export type PrepareSpec = z.infer<typeof prepareSchema>;
export type ResultFormat = z.infer<typeof resultFormatSchema>;
export type Limits = z.infer<typeof limitsSchema>;

export function commandList(cmd: string | string[]): string[] {
  return Array.isArray(cmd) ? cmd : [cmd];
}
