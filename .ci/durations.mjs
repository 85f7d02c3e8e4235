// Writes .ci/durations.json from the test-results.json each package's vitest wrote: the seconds of
// every file that took 10 s or more (the longer of its stores), which .ci/slow-first.ts starts first.
// Run it after a CI run on a quiet machine and commit the file when the slowest files have changed.
import Fs from 'node:fs';
import Path from 'node:path';

const root = Path.resolve(import.meta.dirname, '..');
const seconds = {};
for (const dir of ['packages', 'apps']) {
    for (const name of Fs.readdirSync(Path.join(root, dir))) {
        const report = Path.join(root, dir, name, 'test-results.json');
        if (!Fs.existsSync(report)) {
            continue;
        }

        for (const result of JSON.parse(Fs.readFileSync(report, 'utf8')).testResults) {
            const file = Path.relative(root, result.name).split(Path.sep).join('/');
            seconds[file] = Math.max(seconds[file] ?? 0, Math.round((result.endTime - result.startTime) / 1000));
        }
    }
}

const slow = Object.entries(seconds)
    .filter(([, s]) => s >= 10)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
Fs.writeFileSync(Path.join(root, '.ci', 'durations.json'), `${JSON.stringify(Object.fromEntries(slow), null, 4)}\n`);
console.log(`.ci/durations.json: ${slow.length} files of 10 s or more`);
