// Idle memory of the embedded server (RSS): just started (first start, initdb included), after some
// load, and after a restart on the same data. The target is the figure after a restart.
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { createClient, expectStatus, pool } from './lib/load.mjs';
import { createAccount, jsonRequest, startServer } from './lib/server.mjs';

const TARGET_AFTER_RESTART_MB = 250;
const SETTLE_MS = 3000;
const LOAD = 3000;
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const mb = (bytes) => Math.round(bytes / (1024 * 1024));
const idleRss = async (server) => {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return mb(server.rssBytes());
};

const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bench-idle-'));
const { request, close } = createClient(16);
let server = null;
try {
    server = await startServer({ env, dataDir });
    const firstReadyMs = server.readyMs;
    const started = await idleRss(server);

    const { token } = await createAccount(server);
    const auth = { authorization: `Bearer ${token}` };
    const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
    const { workflowId } = expectStatus(await jsonRequest(server, 'POST', '/api/workflows', { name: 'Idle', graph }, token), 201, 'create workflow');
    await pool(LOAD, 16, async () => expectStatus(await request(`${server.url}/api/workflows/${workflowId}`, { headers: auth }), 200, 'get workflow'));
    const afterLoad = await idleRss(server);
    await server.stop();

    server = await startServer({ env, dataDir });
    const afterRestart = await idleRss(server);
    await server.stop();

    console.log(`embedded idle RSS: just started ${started} MB, after ${LOAD} GETs ${afterLoad} MB, after a restart ${afterRestart} MB`);
    console.log(`ready in: first start (initdb included) ${(firstReadyMs / 1000).toFixed(1)} s, restart ${(server.readyMs / 1000).toFixed(1)} s`);
    console.log(`target after a restart: <= ${TARGET_AFTER_RESTART_MB} MB ${afterRestart <= TARGET_AFTER_RESTART_MB ? '(met)' : '(NOT met)'}`);
} finally {
    // Also when a step failed: a server left running would outlive the bench.
    await server?.stop();
    await close();
    Fs.rmSync(dataDir, { recursive: true, force: true });
}
