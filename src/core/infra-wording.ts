/**
 * How every face says "infrastructure error": Tandem's machinery failed (clone, merge conflict
 * with the base, image, engine), so there is no result, and that is never a verdict on the code.
 * One wording for the terminal, comments, check runs, job summaries and annotations. Pure.
 */

/** The phrase that goes with every infrastructure error. */
export const NOT_A_VERDICT = 'not a verdict on the code';

/** Check-run and status title for an evaluation that ended in an infrastructure error. */
export const INFRA_TITLE = `Tandem: infrastructure error, ${NOT_A_VERDICT}`;

/** The one-line headline, with an optional detail: `…, not a verdict on the code: <detail>`. */
export function infraHeadline(detail?: string): string {
  return detail ? `${INFRA_TITLE}: ${detail}` : INFRA_TITLE;
}

/** The terminal's verdict line for such an outcome. */
export const INFRA_VERDICT_LINE = `INFRASTRUCTURE ERROR (${NOT_A_VERDICT})`;

/** What a reader can do about it, for comments and summaries. */
export const INFRA_ADVICE = `This is ${NOT_A_VERDICT}. Re-run the check or comment \`/tandem run\`.`;

/**
 * The evaluator's own mistake (a suite path or hidden file missing, listed ids no configuration
 * reports, an image that does not exist): said as such, never as a failing test.
 */
export const INVALID_SUITE = `invalid suite — ${NOT_A_VERDICT}`;

/** Check-run title for it. */
export const INVALID_SUITE_TITLE = `Tandem: ${INVALID_SUITE}`;

/** The terminal's verdict line for it. */
export const INVALID_SUITE_VERDICT_LINE = `INVALID SUITE (${NOT_A_VERDICT})`;
