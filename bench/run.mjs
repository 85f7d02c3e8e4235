// `npm run bench`: every benchmark in this folder, one after another, each printing its own figures.
import { spawnSync } from 'node:child_process';
import Fs from 'node:fs';
import Path from 'node:path';

import { describeMachine } from './lib/machine.mjs';

const here = Path.dirname(new URL(import.meta.url).pathname);
const only = process.argv[2];
const benches = Fs.readdirSync(here)
    .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs')
    .filter((file) => !only || file.startsWith(only))
    .sort();

console.log(await describeMachine());

let failed = false;
for (const file of benches) {
    console.log(`\n== ${file.replace(/\.mjs$/, '')} ==`);
    const result = spawnSync(process.execPath, ['--expose-gc', Path.join(here, file)], { stdio: 'inherit' });
    failed ||= result.status !== 0;
}

process.exit(failed ? 1 : 0);
