/**
 * An evaluator's mistake is never a verdict on the code (issue 26 item 5), through the real App
 * over HTTP against the GitHub stand-in, with the real engine (Docker): a suite listing ids no
 * configuration ever reports, an image that does not exist, a hidden file or a suite path that
 * is missing. Each member's check and sticky comment say "invalid suite — not a verdict on the
 * code" with the suite path (and, within `reveal`, the first unmatched ids); the check fails
 * without a re-run button, and nothing says a test still fails.
 */
import { describe, expect, it } from 'vitest';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { orgConfig, SCHEMA_OK, SUITE } from './app-harness.ts';

const scenario = useScenario();
const SUITE_PATH = 'suites/checkout/suite.yml';
const TITLE = 'Tandem: invalid suite — not a verdict on the code';
const MISSPELT = 'checkout::nope::misspelt';

/** Opens acme/schema#1 alone and lets the App evaluate it; returns its check and its comment. */
async function evaluateSchemaPull(w: Scenario) {
  const pr = await w.openPull('schema', SCHEMA_OK, 'Adds total.');
  await w.sendPull('opened', 'schema', pr.number);
  await w.settle();
  const checks = w.tandemChecks('schema', pr.head.sha);
  expect(checks).toHaveLength(1);
  const comments = w.stickyComments('schema', pr.number);
  expect(comments).toHaveLength(1);
  // The comment as a reader sees it: past the sticky marker.
  const comment = (comments[0]!.body ?? '').replace('<!-- tandem:linked-change -->\n', '');
  return { check: checks[0]!, comment };
}

/** Nothing published blames the code. */
function expectNoVerdictOnTheCode(published: string) {
  expect(published).not.toMatch(/still fails?/);
  expect(published).not.toContain('Not resolved');
  expect(published).not.toContain('not resolved');
  expect(published).not.toContain('Failing tests');
}

function expectInvalidSuiteCheck(check: ReturnType<Scenario['tandemChecks']>[number]) {
  expect(check.status).toBe('completed');
  expect(check.conclusion).toBe('failure');
  expect(check.output.title).toBe(TITLE);
  // The evaluator fixes the suite; re-running this one cannot help.
  const last = (check.history as Array<{ actions?: Array<{ identifier: string }> }>).at(-1)!;
  expect(last.actions ?? []).toEqual([]);
}

describe('App: listed ids no configuration reports', () => {
  it('says invalid suite with the path and the unmatched id, never a failing test', async () => {
    const w = await scenario().start();
    w.standIn.setFile('acme', 'tandem-suites', SUITE_PATH, `${SUITE}fail_to_pass: [${MISSPELT}]\n`);
    const { check, comment } = await evaluateSchemaPull(w);
    expectInvalidSuiteCheck(check);
    const first = comment.split('\n')[0]!;
    expect(first).toMatch(
      /^⚠️ \*\*Invalid suite\*\* — not a verdict on the code: 1 listed test id in fail\\_to\\_pass was never reported by any configuration/,
    );
    expect(first).toContain(`suite \`${SUITE_PATH}\` field \`fail_to_pass\``);
    expect(first).toContain(`never reported: \`${MISSPELT}\``);
    expect(check.output.summary).toContain(first);
    expectNoVerdictOnTheCode(`${comment}\n${JSON.stringify(check.output)}`);
  });

  it('names no id under reveal: counts', async () => {
    const w = await scenario()
      .with({ config: orgConfig().replace('reveal: names', 'reveal: counts') })
      .start();
    w.standIn.setFile('acme', 'tandem-suites', SUITE_PATH, `${SUITE}fail_to_pass: [${MISSPELT}]\n`);
    const { check, comment } = await evaluateSchemaPull(w);
    expectInvalidSuiteCheck(check);
    expect(comment.split('\n')[0]).toContain(`suite \`${SUITE_PATH}\` field \`fail_to_pass\``);
    const published = `${comment}\n${JSON.stringify(check.output)}`;
    expect(published).not.toContain('misspelt');
    expectNoVerdictOnTheCode(published);
  });
});

describe('App: the suite names what does not exist', () => {
  it('an image that does not exist is an invalid suite, not an infrastructure error', async () => {
    const w = await scenario().start();
    w.standIn.setFile(
      'acme',
      'tandem-suites',
      SUITE_PATH,
      SUITE.replace('image: tandem/sandbox:node20', 'image: tandem/no-such-image:1'),
    );
    const { check, comment } = await evaluateSchemaPull(w);
    expectInvalidSuiteCheck(check);
    const first = comment.split('\n')[0]!;
    expect(first).toContain(
      '⚠️ **Invalid suite** — not a verdict on the code: image "tandem/no-such-image:1"',
    );
    expect(first).toContain(`suite \`${SUITE_PATH}\` field \`image\``);
    expect(first).not.toContain('Infrastructure error');
    expect(check.output.title).not.toContain('infrastructure');
  });

  it('a missing hidden file is an invalid suite naming the suite path and the field', async () => {
    const w = await scenario().start();
    w.standIn.setFile(
      'acme',
      'tandem-suites',
      SUITE_PATH,
      SUITE.replace('files: [hidden/checkout.test.js]', 'files: [hidden/gone.test.js]'),
    );
    const { check, comment } = await evaluateSchemaPull(w);
    expectInvalidSuiteCheck(check);
    expect(comment.split('\n')[0]).toBe(
      `⚠️ **Invalid suite** — not a verdict on the code: suite ${SUITE_PATH}: tests\\[0\\].files\\[0\\] not found`,
    );
    // The hidden path itself never leaves the evaluator.
    expect(`${comment}${JSON.stringify(check.output)}`).not.toContain('gone.test.js');
  });

  it('a suite path that does not exist is an invalid suite naming the path', async () => {
    const w = await scenario()
      .with({ config: orgConfig().replace(SUITE_PATH, 'suites/nowhere/suite.yml') })
      .start();
    const { check, comment } = await evaluateSchemaPull(w);
    expectInvalidSuiteCheck(check);
    expect(comment.split('\n')[0]).toBe(
      '⚠️ **Invalid suite** — not a verdict on the code: suite suites/nowhere/suite.yml not found in the evaluator repository',
    );
  });
});
