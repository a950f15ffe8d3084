/**
 * Attacks through result files (issue 8, findings 2, 3, 5 and 6), with real Docker: the code
 * under test writes its result file as a link to a host file, a link to /dev/zero, a
 * FIFO, a 200 MB file, under a linked folder, or as malformed XML whose parse error would spell
 * out a hidden file. Each must fail that group with Tandem's reason — never read the host, never
 * hang, never exhaust memory, never quote the file, never become an infrastructure error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase } from '../helpers/example-cases.ts';
import { type Canary, hostCanary, reportText } from './attack-kit.ts';

const docker = dockerSuite('sec-results');
const HIDDEN_SECRET = 'HIDDEN-ASSERTION-7f3a9c-expected-total-4242';
const VALID =
  '<testsuites><testsuite name="s"><testcase classname="c" name="works"/></testsuite></testsuites>';

/** What the PR's own test runner (`app/run.sh` on head) does to its result file, per group. */
function attacks(canary: Canary): Record<string, string> {
  return {
    'host-link': `ln -s ${canary.file} "$TANDEM_RESULTS/$1.xml"`,
    'dev-zero': 'ln -s /dev/zero "$TANDEM_RESULTS/$1.xml"',
    fifo: 'mkfifo "$TANDEM_RESULTS/$1.xml"',
    huge: `{ echo '<testsuites><testsuite name="s">'; yes '<testcase classname="c" name="n"/>' | head -c 209715200; echo '</testsuite></testsuites>'; } > "$TANDEM_RESULTS/$1.xml"`,
    'linked-folder': `ln -s ${canary.dir} "$TANDEM_RESULTS/sub"`,
    'deep-nesting': `{ echo '<testsuites>'; yes '<testsuite name="s">' | head -n 200000; echo '<testcase classname="c" name="n"/>'; yes '</testsuite>' | head -n 200000; echo '</testsuites>'; } > "$TANDEM_RESULTS/$1.xml"`,
    // Billion laughs: ten levels of ten entity references each.
    'entity-expansion': `{ printf '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY l0 "lollollollol">'; for i in 1 2 3 4 5 6 7 8 9; do printf '<!ENTITY l%s "' $i; for j in 1 2 3 4 5 6 7 8 9 10; do printf '&l%s;' $((i - 1)); done; printf '">'; done; printf ']><testsuites><testsuite name="s"><testcase classname="c" name="&l9;"/></testsuite></testsuites>'; } > "$TANDEM_RESULTS/$1.xml"`,
    // The parser would name the "element": the hidden file, hex-encoded, in its error message.
    'quoting-parse-error': `printf '<testsuites><x%s' "$(od -An -tx1 "$TANDEM_HIDDEN/secret.txt" | tr -d ' \\n')" > "$TANDEM_RESULTS/$1.xml"`,
  };
}

const hex = (s: string) => Buffer.from(s).toString('hex');

describe('attack: result files the code under test controls', () => {
  let canary: Canary;
  let report: Report;
  const names = [
    'host-link',
    'dev-zero',
    'fifo',
    'huge',
    'linked-folder',
    'quoting-parse-error',
    'deep-nesting',
    'entity-expansion',
  ];

  beforeAll(async () => {
    canary = await hostCanary('results');
    docker.track(canary.dir);
    const script = Object.entries(attacks(canary))
      .map(([group, cmd]) => `if [ "$1" = ${group} ]; then ${cmd}; exit 0; fi`)
      .join('\n');
    const c = await shellCase({
      name: 'result-attacks',
      repos: [
        {
          name: 'app',
          base: {
            'run.sh': `mkdir -p "$TANDEM_RESULTS/sub"\necho '${VALID}' > "$TANDEM_RESULTS/$1.xml"\necho '${VALID}' > "$TANDEM_RESULTS/sub/canary.txt"\n`,
          },
          head: { 'run.sh': `${script}\n` },
        },
      ],
      suite: {
        name: 'result-attacks-suite',
        image: SANDBOX_IMAGE,
        tests: names.map((name) => ({
          name,
          files: ['hidden/secret.txt'],
          run: `sh app/run.sh ${name}`,
          results: {
            format: 'junit' as const,
            path: name === 'linked-folder' ? 'sub/canary.txt' : `${name}.xml`,
          },
          timeout: 120,
        })),
        // Short enough that a hang would show; long enough for the 200 MB write on a loaded machine.
        limits: { configuration_timeout: 600 },
      },
      hidden: { 'hidden/secret.txt': HIDDEN_SECRET },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 600_000);

  it('grades the PR as failing (its groups failed), not as an infrastructure error', () => {
    expect(report.infraErrors).toEqual([]);
    expect(report.outcome).toBe('unresolved');
    const base = report.configurations.find((x) => x.id === 'base')!;
    expect(base.groups.every((g) => g.status === 'reported')).toBe(true);
    expect(base.groups).toHaveLength(names.length);
  });

  it.each([
    ['host-link', /refused: host-link\.xml is a symbolic link/],
    ['dev-zero', /refused: dev-zero\.xml is a symbolic link/],
    ['fifo', /refused: fifo\.xml is not a regular file/],
    ['huge', /refused: huge\.xml is larger than Tandem's 32 MB limit/],
    ['linked-folder', /refused: sub\/canary\.txt lies under a symbolic link/],
    [
      'quoting-parse-error',
      /^result file quoting-parse-error\.xml is not valid junit; Tandem could not read it$/,
    ],
    ['deep-nesting', /^result file deep-nesting\.xml is not valid junit; Tandem could not read it$/],
  ])('%s fails its group with Tandem’s reason', (name, reason) => {
    const full = report.configurations.find((x) => x.id === 'full')!;
    const group = full.groups.find((g) => g.name === name)!;
    expect(group.status).toBe('crashed');
    expect(group.reason).toMatch(reason);
  });

  it('entity-expansion is read without expanding entities (no billion laughs)', () => {
    const full = report.configurations.find((x) => x.id === 'full')!;
    expect(full.groups.find((g) => g.name === 'entity-expansion')?.status).toBe('reported');
    expect(JSON.stringify(report).length).toBeLessThan(1_000_000);
  });

  it('never lets the host file or the hidden file into the report or its Markdown', () => {
    const texts = [
      reportText(report),
      renderMarkdown(report, { reveal: 'names' }),
      renderMarkdown(report, { reveal: 'counts' }),
    ];
    for (const text of texts) {
      expect(text).not.toContain(canary.secret);
      expect(text).not.toContain(HIDDEN_SECRET);
      expect(text).not.toContain(hex(HIDDEN_SECRET).slice(0, 24));
    }
  });
});
