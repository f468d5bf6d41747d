// jest's order of test files, with one correction. jest runs first the files that took longest in the
// previous run on the same path (its timing cache), and a file it has no timing of by size. Neither
// suits a file whose cost is far out of line with its size and whose last timing can be short: jest
// records a run filtered with -t, or a file that failed outside any test, at the few seconds it took.
// The mirror model (about 100 s) then started after every other file of a CI run and ran alone to the
// end while the other worker idled. The files named here go first, whatever the cache says; the rest
// keep jest's order.
import sequencerModule from '@jest/test-sequencer';

// A CommonJS module: its class is the `default` of its exports.
const Sequencer = sequencerModule.default;

/** Files whose run time is long and out of all proportion to their size (paths from the repository root). */
const LONG_FOR_THEIR_SIZE = ['test/unit/mirror-model.test.ts'];

export default class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const long = (test) =>
      LONG_FOR_THEIR_SIZE.some((path) => test.path === `${test.context.config.rootDir}/${path}`);
    return [...sorted.filter(long), ...sorted.filter((test) => !long(test))];
  }
}
