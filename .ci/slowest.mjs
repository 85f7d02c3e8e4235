// Prints how long CI took and its slowest test files, from the JSON each package's vitest writes
// (test-results.json): where to look first when CI grows slower.
import Fs from 'node:fs';
import Path from 'node:path';

const [started, count = '5'] = process.argv.slice(2);
const root = Path.resolve(import.meta.dirname, '..');
const files = [];
for (const dir of ['packages', 'apps']) {
    for (const name of Fs.readdirSync(Path.join(root, dir))) {
        const report = Path.join(root, dir, name, 'test-results.json');
        if (!Fs.existsSync(report)) {
            continue;
        }

        for (const result of JSON.parse(Fs.readFileSync(report, 'utf8')).testResults) {
            files.push({ file: Path.relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000 });
        }
    }
}

files.sort((a, b) => b.seconds - a.seconds);
const total = started ? `${Math.round(Date.now() / 1000 - Number(started))} s in all` : '';
console.log(`CI: ${total}${total ? ', ' : ''}${files.length} test files; the slowest ${count}:`);
for (const { file, seconds } of files.slice(0, Number(count))) {
    console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
}
