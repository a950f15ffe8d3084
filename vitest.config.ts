import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import UnitTestsLast from './test/support/unit-tests-last.ts';

/**
 * Test files at a time: one more than the cores. Vitest's default is cores − 1, which on a
 * 2-core CI machine is one file at a time, and most files spend their time waiting — on Docker
 * containers, git, a spawned App or CLI process — not on the CPU (a serial run used about 40% of
 * two cores). Every file owns its temp folders, caches, ports (0) and containers (labelled with its
 * pid), so files do not share state.
 */
const FILES_AT_ONCE = availableParallelism() + 1;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: FILES_AT_ONCE,
    sequence: { sequencer: UnitTestsLast },
  },
});
