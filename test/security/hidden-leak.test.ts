/**
 * Attack on the secrecy of hidden tests through what Tandem publishes (issue 8, finding 2), with
 * real Docker and git: PR code reads its group's hidden files and prints them into its output,
 * a failure message and (hex-encoded) a test name. No hidden line or path may reach the report,
 * its Markdown (App comments, Action summaries, CLI `--markdown`), its check-run text or the JSON
 * report the App serves (within `reveal`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { renderCheckRunOutput } from '../../src/report/check-run-output.ts';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { revealReport } from '../../src/report/report-reveal.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase } from '../helpers/example-cases.ts';

const docker = dockerSuite('sec-leak');
const HIDDEN_LINE = 'assert_equal "$(compute_total 17 25)" "42-the-hidden-expectation"';
const HIDDEN_FILE = 'hidden/secret-check.sh';
const hex = (s: string) => Buffer.from(s).toString('hex');

/** The PR's test runner: leaks the hidden file every way it can, then writes a JUnit file. */
const LEAK = `cat "$TANDEM_HIDDEN/secret-check.sh"
line=$(grep assert_equal "$TANDEM_HIDDEN/secret-check.sh" | sed 's/^ *//')
hexline=$(printf '%s' "$line" | od -An -tx1 | tr -d ' \\n')
esc=$(printf '%s' "$line" | sed 's/&/\\&amp;/g; s/"/\\&quot;/g; s/</\\&lt;/g')
printf '<testsuites><testsuite name="s"><testcase classname="c" name="%s"/><testcase classname="c" name="leaky"><failure message="%s"/></testcase></testsuite></testsuites>' "$hexline" "$esc" > "$TANDEM_RESULTS/$1"
`;

describe('attack: publishing hidden test content', () => {
  let report: Report;

  beforeAll(async () => {
    const c = await shellCase({
      name: 'leak',
      repos: [{ name: 'app', base: { 'run.sh': 'true\n' }, head: { 'run.sh': LEAK } }],
      suite: {
        name: 'leak-suite',
        image: SANDBOX_IMAGE,
        tests: [
          {
            name: 'junit',
            files: [HIDDEN_FILE],
            run: 'sh app/run.sh r.xml; test -f $TANDEM_RESULTS/r.xml || echo "<testsuites/>" > $TANDEM_RESULTS/r.xml',
            results: { format: 'junit', path: 'r.xml' },
          },
          {
            name: 'crash',
            files: [HIDDEN_FILE],
            run: 'sh app/run.sh ignored.xml; exit 1',
            results: { format: 'junit', path: 'crash.xml' },
          },
        ],
        // So the leaked failure message and hex-named test are graded (and shown) in the report.
        fail_to_pass: ['junit::c::leaky', `junit::c::${hex(HIDDEN_LINE)}`],
        pass_to_pass: [],
      },
      hidden: { [HIDDEN_FILE]: `#!/bin/sh\n# the evaluator's private check\n  ${HIDDEN_LINE}\n` },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 300_000);

  it('the attack ran: the PR really printed and reported the hidden line', () => {
    const full = report.configurations.find((x) => x.id === 'full')!;
    expect(full.groups.find((g) => g.name === 'junit')).toMatchObject({ status: 'reported' });
    expect(full.groups.find((g) => g.name === 'crash')?.reason).toContain('[hidden]');
    expect(full.tests.find((t) => t.id === 'junit::c::leaky')?.reason).toContain('[hidden]');
    expect(full.tests.map((t) => t.id)).toContain('junit::c::[hidden]');
  });

  it('no hidden line, its hex, or the hidden path leaves in any published text', () => {
    const texts = {
      json: JSON.stringify(report),
      markdownNames: renderMarkdown(report, { reveal: 'names' }),
      markdownCounts: renderMarkdown(report, { reveal: 'counts' }),
      checkRun: JSON.stringify(renderCheckRunOutput(report, { reveal: 'names' })),
      // The JSON report the App serves from its comments' footers, at each `reveal`.
      publishedMessages: JSON.stringify(revealReport(report, 'messages')),
      publishedNames: JSON.stringify(revealReport(report, 'names')),
      publishedCounts: JSON.stringify(revealReport(report, 'counts')),
    };
    for (const [where, text] of Object.entries(texts)) {
      expect(text, where).not.toContain('42-the-hidden-expectation');
      expect(text, where).not.toContain(hex(HIDDEN_LINE).slice(0, 40));
      expect(text, where).not.toContain('secret-check.sh');
      expect(text, where).not.toContain("the evaluator's private check");
    }
  });

  it('the published JSON report at reveal: counts carries no name or message the PR wrote', () => {
    const counts = JSON.stringify(revealReport(report, 'counts'));
    expect(counts).not.toContain('leaky');
    expect(counts).not.toContain('[hidden]');
  });
});
