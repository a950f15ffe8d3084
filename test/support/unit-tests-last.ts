/**
 * The order test files start in: Vitest's own (files that failed or took longest in the last run
 * first, else larger files first), then the pure unit files last. On a fresh clone Vitest has no
 * timings, and a slow Docker or App file started late would run alone at the end; the unit files,
 * a few seconds each, fill the other workers' time while the slow ones finish.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class UnitTestsLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const unit = (f: TestSpecification) => (f.moduleId.includes('/test/unit/') ? 1 : 0);
    // Array.prototype.sort is stable: Vitest's order holds within each part.
    return (await super.sort(files)).sort((a, b) => unit(a) - unit(b));
  }
}
