import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { errorText } from '../../../core/error-text.ts';
import type { TestResult, TestStatus } from '../../../core/run.schema.ts';
import { COLLECTION_FAILURE } from '../../../core/test-id.ts';
import { ResultParseError } from './parser.ts';
import { cleanMessage, type RawTest, readableText, secondsToMs, toResults } from './result-builder.ts';

/**
 * JUnit XML: `<testsuites>` or a bare `<testsuite>`, suites nested to any depth. Covers pytest
 * `--junitxml`, jest-junit, go-junit-report (v1 and v2) and node's `--test-reporter=junit`.
 *
 * classname: the testcase's `classname` attribute; when it is absent (or node's placeholder,
 * see below) the enclosing suite names joined with ' > ', so that node's describe blocks give
 * the same ids as its TAP reporter. Retry records (`flakyFailure`, `rerunFailure`) are ignored:
 * the testcase's own `failure`/`error`/`skipped` child is the final outcome.
 *
 * pytest writes a module it could not collect (`ERROR collecting`: an import error, a syntax
 * error) as a testcase named after the module, with `<error message="collection failure">`. That
 * is no test: it becomes `<module>::(collection error)`, a failure of the module's tests
 * (core/test-id.ts), so the module's real tests are not mistaken for new ones once it imports.
 */

// Document order matters: duplicates are numbered in the order they appear.
const xml = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // Decodes numeric references too (pytest writes newlines in attributes as `&#10;`).
  htmlEntities: true,
});

type XmlNode = Record<string, unknown>;

interface Element {
  tag: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

function element(node: XmlNode): Element | undefined {
  const tag = Object.keys(node).find((k) => k !== ':@');
  if (!tag || tag === '#text' || tag.startsWith('?')) return undefined;
  const children = node[tag];
  return {
    tag,
    attrs: (node[':@'] as Record<string, string> | undefined) ?? {},
    children: Array.isArray(children) ? (children as XmlNode[]) : [],
  };
}

function elements(nodes: XmlNode[]): Element[] {
  return nodes.map(element).filter((e): e is Element => e !== undefined);
}

function textOf(el: Element): string {
  return el.children
    .map((c) => c['#text'])
    .filter((t): t is string => typeof t === 'string')
    .join('');
}

interface FoundCase {
  el: Element;
  suites: string[];
}

function collectCases(nodes: Element[], suites: string[], out: FoundCase[]): void {
  for (const el of nodes) {
    if (el.tag === 'testcase') out.push({ el, suites });
    else if (el.tag === 'testsuite')
      collectCases(elements(el.children), [...suites, el.attrs.name ?? ''], out);
    else if (el.tag === 'testsuites') collectCases(elements(el.children), suites, out);
  }
}

/**
 * Node's junit reporter writes classname="test" on every testcase and no `timestamp` on its
 * suites (every other producer we know writes one). It also escapes `"` in names twice
 * (`&amp;quot;`), which we undo so names match the TAP reporter's.
 */
function isNodeReporter(cases: FoundCase[], root: Element): boolean {
  if (cases.length === 0 || !cases.every((c) => c.el.attrs.classname === 'test')) return false;
  const stampless = (el: Element): boolean =>
    (el.tag !== 'testsuite' || el.attrs.timestamp === undefined) && elements(el.children).every(stampless);
  return stampless(root);
}

const SKIP_MESSAGE_NOISE = new Set(['true', 'false']);

const PYTEST_COLLECTION_FAILURE = 'collection failure';

function isCollectionFailure(el: Element): boolean {
  return elements(el.children).some(
    (k) => k.tag === 'error' && k.attrs.message?.trim() === PYTEST_COLLECTION_FAILURE,
  );
}

function outcome(el: Element): { status: TestStatus; message?: string } {
  const kids = elements(el.children);
  const pick = (tag: string) => kids.find((k) => k.tag === tag);
  const failure = pick('failure');
  const error = pick('error');
  const skipped = pick('skipped');
  const found = failure ?? error ?? skipped;
  if (!found) return { status: 'passed' };
  const status: TestStatus = failure ? 'failed' : error ? 'error' : 'skipped';
  let attr = found.attrs.message;
  // Node writes message="true" on `<skipped>`: a flag, not a reason.
  if (status === 'skipped' && attr !== undefined && SKIP_MESSAGE_NOISE.has(attr.trim())) attr = undefined;
  const message = cleanMessage(attr, textOf(found));
  return message === undefined ? { status } : { status, message };
}

function rootElement(text: string): Element {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw new ResultParseError(`malformed JUnit XML at ${where}: ${msg}`);
  }
  let parsed: XmlNode[];
  try {
    parsed = xml.parse(text) as XmlNode[];
  } catch (err) {
    throw new ResultParseError(`malformed JUnit XML: ${errorText(err)}`);
  }
  const root = elements(parsed)[0];
  if (!root) throw new ResultParseError('JUnit XML has no root element');
  if (root.tag !== 'testsuites' && root.tag !== 'testsuite') {
    throw new ResultParseError(
      `expected a <testsuites> or <testsuite> root element in JUnit XML, found <${root.tag}>`,
    );
  }
  return root;
}

export function parseJunit(text: string, group: string): TestResult[] {
  const root = rootElement(readableText(text, 'JUnit XML'));
  const cases: FoundCase[] = [];
  collectCases([root], [], cases);
  const node = isNodeReporter(cases, root);
  const tests: RawTest[] = cases.map(({ el, suites }) => {
    const fix = (s: string) => (node ? s.replaceAll('&quot;', '"') : s);
    const name = fix(el.attrs.name?.trim() || '(unnamed)');
    const given = node ? '' : (el.attrs.classname?.trim() ?? '');
    const classname =
      given ||
      suites
        .filter((s) => s.trim() !== '')
        .map(fix)
        .join(' > ');
    const durationMs = secondsToMs(el.attrs.time);
    const what = isCollectionFailure(el)
      ? { classname: given ? `${given}.${name}` : name, name: COLLECTION_FAILURE }
      : { classname, name };
    return { ...what, ...outcome(el), ...(durationMs === undefined ? {} : { durationMs }) };
  });
  return toResults(group, tests);
}
