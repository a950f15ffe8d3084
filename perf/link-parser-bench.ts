/**
 * `npx tsx perf/link-parser-bench.ts [runs]`: how long `Depends-On` parsing takes on PR bodies
 * built to be slow (65 KB of near-matches, unclosed code, comments, emphasis), against an
 * ordinary body. The parser reads at most 64 KiB through markdown-it's linear lexer; the unit
 * tests assert the behaviour on these bodies, this prints the time. Reported, never asserted.
 */
import { parseLinks } from '../src/core/link-parser.ts';

const SELF = { owner: 'acme', repo: 'api', number: 1 };
const fill = (unit: string) => unit.repeat(Math.ceil(70_000 / unit.length));
const BODIES: Record<string, string> = {
  'ordinary (2 KB, 3 links)': `${'Adds the checkout field.\n\n'.repeat(70)}Depends-On: acme/web#3\nDepends-On: https://github.com/acme/schema/pull/12, #9\n`,
  'near-miss keys': fill('Depends-On acme/web#1 depends-on; '),
  'valid lines (70 KB)': fill('Depends-On: acme/web#1, acme/ops#2\n'),
  'unclosed comments': fill('<!-- Depends-On: acme/web#1 '),
  'backtick runs': fill('x`Depends-On: acme/web#1 '),
  'open brackets': fill('[Depends-On: acme/web#1]('),
  'emphasis runs': fill('*_Depends-On:_* '),
  'fences in a fence': `\`\`\`\`\n${fill('```\nDepends-On: acme/web#1\n')}`,
  'long spaces': fill(`Depends-On:${' '.repeat(1000)}x`),
};

const runs = Math.max(1, Number(process.argv[2] ?? 5) || 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
process.stdout.write(`parseLinks, median of ${runs} runs\n`);
for (const [name, body] of Object.entries(BODIES)) {
  const times: number[] = [];
  let links = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    links = parseLinks('', body, SELF).length;
    times.push(performance.now() - t);
  }
  process.stdout.write(
    `  ${name.padEnd(26)} ${String(body.length).padStart(6)} chars  ${median(times).toFixed(1).padStart(6)} ms  ${links} link(s)\n`,
  );
}
