// jest's order of test files, with one correction. jest runs the files it has timed longest first, so
// that no worker is left alone with a long file at the end; a file it has no timing of (a fresh clone,
// a new cache directory) it orders by size, as a stand-in for its cost. A few files cost far more than
// their size says: sorted by size they start last and run alone while the other worker idles (the
// mirror model, about 100 s of a CI run, started after every other file and ran alone to the end).
// Those go first when jest has no timing of them; once it has, its own order holds.
import sequencerModule from '@jest/test-sequencer';

// A CommonJS module: its class is the `default` of its exports.
const Sequencer = sequencerModule.default;

/** Files whose run time is out of all proportion to their size (paths from the repository root). */
const LONG_FOR_THEIR_SIZE = ['test/unit/mirror-model.test.ts'];

export default class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const untimedLong = (test) =>
      test.duration == null &&
      LONG_FOR_THEIR_SIZE.some((path) => test.path === `${test.context.config.rootDir}/${path}`);
    return [...sorted.filter(untimedLong), ...sorted.filter((test) => !untimedLong(test))];
  }
}
