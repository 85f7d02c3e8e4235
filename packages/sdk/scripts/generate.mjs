// Starts the built server (apps/server/dist) on an embedded store in a temporary directory, reads its
// /openapi.json and writes the SDK's request/response types. Run `npm run build` first.
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';
import { fileURLToPath } from 'node:url';

import { nodeTypesSource } from './node-types.mjs';
import { openApiToTypeScript } from './openapi-types.mjs';

const here = Path.dirname(fileURLToPath(import.meta.url));
const serverDist = Path.resolve(here, '../../../apps/server/dist/index.js');
const target = Path.resolve(here, '../src/generated/openapi.ts');
const nodesTarget = Path.resolve(here, '../src/generated/nodes.ts');

const { createApp, loadConfig } = await import(serverDist).catch((err) => {
    throw new Error(`cannot load ${serverDist} (run \`npm run build\` first): ${err.message}`);
});

const dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-generate-'));
const app = await createApp(loadConfig({ FLOWCTL_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' }, { role: 'api' }));
try {
    await app.start();
    const res = await fetch(`${app.url}/openapi.json`);
    if (!res.ok) {
        throw new Error(`GET /openapi.json answered ${res.status}`);
    }

    await Fs.writeFile(target, await openApiToTypeScript(await res.json()));
    console.log(`wrote ${Path.relative(process.cwd(), target)}`);
    const { nodeDataSchemas } = await import('@flowctl/engine');
    await Fs.writeFile(nodesTarget, nodeTypesSource(nodeDataSchemas()));
    console.log(`wrote ${Path.relative(process.cwd(), nodesTarget)}`);
} finally {
    await app.stop();
    await Fs.rm(dataDir, { recursive: true, force: true });
}
