// Writes .ci/durations.json from the test-results.json each package's vitest wrote: the seconds of
// every file that took 10 s or more (the longer of its stores), which .ci/slow-first.ts starts first.
// Run it after a CI run on a quiet machine and commit the file when the slowest files have changed.
import Fs from 'node:fs';
import Path from 'node:path';

import { root, testFiles } from './test-results.mjs';

const seconds = {};
for (const { file, seconds: taken } of testFiles()) {
    seconds[file] = Math.max(seconds[file] ?? 0, Math.round(taken));
}

const slow = Object.entries(seconds)
    .filter(([, s]) => s >= 10)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
Fs.writeFileSync(Path.join(root, '.ci', 'durations.json'), `${JSON.stringify(Object.fromEntries(slow), null, 4)}\n`);
console.log(`.ci/durations.json: ${slow.length} files of 10 s or more`);
