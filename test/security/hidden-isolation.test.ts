/**
 * Attack on hidden-test isolation (issue 8, finding 7), with real Docker and git: PR code run in
 * setup and in one group looks for every group's hidden files, and leaves a process running to
 * copy the next group's. Setup must see none, and a group only its own — whatever path it tries.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, tapScript } from '../helpers/example-cases.ts';
import { statuses } from './attack-kit.ts';

const docker = dockerSuite('sec-hidden');
const SECRET_A = 'GROUP-A-HIDDEN-1b2c';
const SECRET_B = 'GROUP-B-HIDDEN-9e8d';

/** The PR's build step: collects whatever hidden files it can find under /tandem. */
// The pattern is split so this script does not match itself (it lives under /tandem too).
const SNOOP = `grep -rl "GROUP-.-HIDD""EN" /tandem/hidden /tandem/hidden-extra "$TANDEM_HIDDEN" "$TANDEM_HIDDEN/.." 2>/dev/null | sort -u`;

/** PR code in group a leaves a process behind that copies whatever $TANDEM_HIDDEN holds, forever. */
const LINGER = `mkdir -p "$TANDEM_WORKSPACE/app/stolen"
( while :; do cp -r /tandem/hidden/. "$TANDEM_WORKSPACE/app/stolen/" 2>/dev/null; echo >> "$TANDEM_WORKSPACE/app/beat"; sleep 0.05; done ) >/dev/null 2>&1 &
`;
/**
 * In group b: if a's process is alive it beats every 50 ms — wait for two beats (bounded: 3 s
 * when it was killed, as it must be), then nothing of b may have been copied.
 */
const AFTER_TWO_BEATS = `beats() { wc -l < app/beat 2>/dev/null || echo 0; }; n=$(beats); i=0
while [ -f app/beat ] && [ $i -lt 60 ] && [ $(beats) -lt $((n + 2)) ]; do sleep 0.05; i=$((i + 1)); done
test ! -e app/stolen/b-secret.txt`;

describe('attack: reading other groups’ hidden files', () => {
  let report: Report;

  beforeAll(async () => {
    const c = await shellCase({
      name: 'hidden-snoop',
      repos: [
        {
          name: 'app',
          base: { 'snoop.sh': 'true\n' },
          head: {
            'snoop.sh': `${SNOOP} > "$TANDEM_WORKSPACE/app/seen-by-$1.txt"; true\n`,
            'linger.sh': LINGER,
          },
        },
      ],
      suite: {
        name: 'hidden-snoop-suite',
        image: SANDBOX_IMAGE,
        setup: [{ run: 'sh app/snoop.sh setup' }],
        tests: [
          {
            name: 'a',
            files: ['hidden/a.sh', 'hidden/a-secret.txt'],
            run: 'sh app/snoop.sh a; [ -f app/linger.sh ] && sh app/linger.sh; sh $TANDEM_HIDDEN/a.sh',
            results: { format: 'tap', path: 'a.tap' },
          },
          {
            name: 'b',
            files: ['hidden/b.sh', 'hidden/b-secret.txt'],
            run: 'sh $TANDEM_HIDDEN/b.sh',
            results: { format: 'tap', path: 'b.tap' },
            // Sees what a's lingering process would copy (an isolated group would not even see it).
            isolate: false,
          },
        ],
      },
      hidden: {
        'hidden/a-secret.txt': `${SECRET_A}\n`,
        'hidden/b-secret.txt': `${SECRET_B}\n`,
        'hidden/a.sh': tapScript('a.tap', [
          { name: 'own hidden file visible', cmd: `grep -q ${SECRET_A} "$TANDEM_HIDDEN/a-secret.txt"` },
          { name: 'setup found no hidden file', cmd: 'test ! -s app/seen-by-setup.txt' },
          { name: 'group a found only its own', cmd: '! grep -q "b-secret\\|b\\.sh" app/seen-by-a.txt' },
        ]),
        'hidden/b.sh': tapScript('b.tap', [
          { name: 'own hidden file visible', cmd: `grep -q ${SECRET_B} "$TANDEM_HIDDEN/b-secret.txt"` },
          { name: 'no other group file', cmd: 'test ! -e "$TANDEM_HIDDEN/a-secret.txt"' },
          { name: 'nothing group a left running stole these files', cmd: AFTER_TWO_BEATS },
        ]),
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 300_000);

  it('shows setup no hidden file and each group only its own', () => {
    expect(report.infraErrors).toEqual([]);
    for (const id of ['base', 'full']) {
      expect(statuses(report, id).sort()).toEqual([
        ['group a found only its own', 'passed'],
        ['no other group file', 'passed'],
        ['nothing group a left running stole these files', 'passed'],
        ['own hidden file visible', 'passed'],
        ['own hidden file visible', 'passed'],
        ['setup found no hidden file', 'passed'],
      ]);
    }
  });
});
