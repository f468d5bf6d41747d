/* global URL */
// jest's order of test files, from a committed table of each file's time in a full CI run
// (scripts/test-times.json, "<project> <path>": seconds): the longest first, so that the two workers
// end together instead of one running a long file alone at the end. jest's own order comes from its
// timing cache, which a fresh clone does not have (it then goes by file size, which says little: the
// mirror model is a small file that runs for 100 s), and which records a run filtered with -t, or a
// file that failed outside any test, at the few seconds it took. Files the table does not name (new
// ones, and those under 5 s, which jest does not time in its output) follow in jest's order.
// Refresh the table from a CI log: scripts/test-times.mjs <log> > scripts/test-times.json.
import { readFileSync } from 'node:fs';
import sequencerModule from '@jest/test-sequencer';

// A CommonJS module: its class is the `default` of its exports.
const Sequencer = sequencerModule.default;

const TIMES = JSON.parse(readFileSync(new URL('./test-times.json', import.meta.url), 'utf8'));

export default class TestSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const seconds = (test) => {
      const path = test.path.slice(test.context.config.rootDir.length + 1);
      return TIMES[`${test.context.config.displayName?.name ?? ''} ${path}`];
    };
    const known = sorted.filter((test) => seconds(test) !== undefined);
    known.sort((a, b) => seconds(b) - seconds(a));
    return [...known, ...sorted.filter((test) => seconds(test) === undefined)];
  }
}
