// The test files of the last run and how long each took, from the JSON each package's vitest writes
// (test-results.json): read by slowest.mjs and durations.mjs. A file run on both stores appears twice.
import Fs from 'node:fs';
import Path from 'node:path';

export const root = Path.resolve(import.meta.dirname, '..');

/** Every test file's result: its path from the repository root (with /) and its seconds. */
export const testFiles = () => {
    const files = [];
    for (const dir of ['packages', 'apps']) {
        for (const name of Fs.readdirSync(Path.join(root, dir))) {
            const report = Path.join(root, dir, name, 'test-results.json');
            if (!Fs.existsSync(report)) {
                continue;
            }

            for (const result of JSON.parse(Fs.readFileSync(report, 'utf8')).testResults) {
                files.push({ file: Path.relative(root, result.name).split(Path.sep).join('/'), seconds: (result.endTime - result.startTime) / 1000 });
            }
        }
    }

    return files;
};
