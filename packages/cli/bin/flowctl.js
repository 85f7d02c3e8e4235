#!/usr/bin/env node
// The command npm links. It is committed (dist/ is not) so that `npm ci` in a fresh clone, which runs
// before anything is built, still links node_modules/.bin/flowctl; it loads the build, and while there
// is none says how to make one instead of leaving the shell to answer "flowctl: not found".
import Fs from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);
if (Fs.existsSync(entry)) {
    await import(entry.href);
} else {
    process.stderr.write('flowctl is not built yet: run `npm run build` (or `npm start`, which builds it) in the flowctl repository, then try again.\n');
    process.exitCode = 1;
}
