import type { TestResult } from '../../../core/run.schema.ts';

/**
 * A result parser turns one result file's text into test results for one group. Ids are
 * `testId(group, classname, name)`; duplicates within the file are kept apart with
 * `disambiguate`; when the same id is reported twice as retries of one test the last outcome
 * wins. Throws ResultParseError on text it cannot read (an infrastructure error upstream).
 */
export type ResultParser = (text: string, group: string) => TestResult[];

export class ResultParseError extends Error {
  override readonly name = 'ResultParseError';
}
