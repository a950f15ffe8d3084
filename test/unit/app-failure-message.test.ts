/**
 * A failure message on its way to a check run or comment: a suite error reads as the evaluator
 * wrote it, anything else as an evaluation failure; tokens and hidden paths do not get through.
 */
import { describe, expect, it } from 'vitest';
import { publicFailureMessage } from '../../src/app/evaluations/failure-message.ts';
import { InputError } from '../../src/core/errors.ts';

describe('publicFailureMessage', () => {
  it('keeps a suite error as written and names anything else an evaluation failure', () => {
    expect(publicFailureMessage(new InputError('tests[0].run: required'), [])).toBe('tests[0].run: required');
    expect(publicFailureMessage(new Error('docker daemon unreachable'), [])).toBe(
      'evaluation failed: docker daemon unreachable',
    );
  });

  it('removes tokens in clone URLs and the suite folder and hidden file paths', () => {
    const message = publicFailureMessage(
      new Error(
        'clone of https://x-access-token:ghs_secret123@github.com/acme/api.git failed reading /tmp/tandem-suite-abc/hidden/checkout.test.js',
      ),
      ['/tmp/tandem-suite-abc', 'hidden/checkout.test.js'],
    );
    expect(message).toMatch(/^evaluation failed: clone of https:\/\//);
    expect(message).not.toContain('ghs_secret123');
    expect(message).not.toContain('tandem-suite-abc');
    expect(message).not.toContain('checkout.test.js');
  });
});
