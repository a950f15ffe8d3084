import { describe, expect, it } from 'vitest';
import {
  INFRA_ADVICE,
  INFRA_TITLE,
  INFRA_VERDICT_LINE,
  infraHeadline,
  NOT_A_VERDICT,
} from '../../src/core/infra-wording.ts';

describe('infrastructure-error wording', () => {
  it('says "not a verdict on the code" everywhere', () => {
    expect(NOT_A_VERDICT).toBe('not a verdict on the code');
    for (const text of [INFRA_TITLE, INFRA_VERDICT_LINE, INFRA_ADVICE, infraHeadline('clone failed')])
      expect(text).toContain(NOT_A_VERDICT);
  });

  it('puts a detail after the title', () => {
    expect(infraHeadline()).toBe('Tandem: infrastructure error, not a verdict on the code');
    expect(infraHeadline('image missing')).toBe(`${INFRA_TITLE}: image missing`);
  });
});
