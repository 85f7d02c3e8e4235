// Prints how long CI took and its slowest test files: where to look first when CI grows slower.
import { testFiles } from './test-results.mjs';

const [started, count = '5'] = process.argv.slice(2);
const files = testFiles().sort((a, b) => b.seconds - a.seconds);
const total = started ? `${Math.round(Date.now() / 1000 - Number(started))} s in all` : '';
console.log(`CI: ${total}${total ? ', ' : ''}${files.length} test files; the slowest ${count}:`);
for (const { file, seconds } of files.slice(0, Number(count))) {
    console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
}
