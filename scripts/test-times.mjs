/* global process, console */
// Prints the table scripts/test-sequencer.mjs orders test files by, from a CI log (or any jest output
// of a full run): each "PASS <project> <path> (<seconds> s)" line, as "<project> <path>": seconds.
import { readFileSync } from 'node:fs';

const times = {};
for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  const found = /^(?:PASS|FAIL) (\S+) (test\/\S+) \(([\d.]+) s\)$/.exec(line);
  if (found) times[`${found[1]} ${found[2]}`] = Math.round(Number(found[3]));
}
const sorted = Object.entries(times).sort(([, a], [, b]) => b - a);
console.log(JSON.stringify(Object.fromEntries(sorted), null, 1));
