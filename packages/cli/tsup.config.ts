import Fs from 'node:fs';

import { defineConfig } from 'tsup';

const { version } = JSON.parse(Fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// One entry; the SDK, engine, prompts, spinner and YAML parser are reached through import(), so tsup
// splits them into chunks that `flowctl --version` and `--help` never load. The workspace packages
// are bundled in, so the packed `flowctl` tarball installs on its own (npm i -g flowctl-x.tgz).
export default defineConfig({
    entry: ['src/bin.ts'],
    format: ['esm'],
    clean: true,
    sourcemap: true,
    splitting: true,
    target: 'node20',
    noExternal: ['@flowctl/sdk', '@flowctl/engine'],
    define: { __FLOWCTL_VERSION__: JSON.stringify(version) },
    banner: { js: '#!/usr/bin/env node' }
});
