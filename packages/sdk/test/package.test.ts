import { execFile, execFileSync } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from './server.js';

const here = Path.dirname(fileURLToPath(import.meta.url));
const root = Path.resolve(here, '../../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * `npm pack` of a workspace package into `into`; returns the tarball's path. Scripts are skipped: the
 * suite's build has just run (prepack building an unbuilt clone is proven by .ci/newcomer.sh).
 */
const pack = (dir: string, into: string): string => {
    const out = execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', into, '--json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return Path.join(into, (JSON.parse(out) as { filename: string }[])[0]!.filename);
};

const ESM = `
import Flowctl, { Flowctl as Named, AuthenticationError, FlowctlError } from '@flowctl/sdk';
const client = new Flowctl({ baseUrl: process.env.FLOWCTL_URL });
const err = await client.auth.me().catch((e) => e);
await client.close();
console.log(JSON.stringify({ same: Flowctl === Named, auth: err instanceof AuthenticationError, base: err instanceof FlowctlError, status: err.status }));
`;

const CJS = `
const { Flowctl, AuthenticationError } = require('@flowctl/sdk');
const client = new Flowctl({ baseUrl: process.env.FLOWCTL_URL });
client.auth.me().catch((err) => {
    console.log(JSON.stringify({ auth: err instanceof AuthenticationError, status: err.status }));
    return client.close();
});
`;

const TS = `
import Flowctl, { type Graph, type GraphNode, type Run, NotFoundError, type Upload, type WorkflowSummary } from '@flowctl/sdk';

const filter: GraphNode<'FILTER'> = { id: 'f', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age > 30' } };
const graph: Graph = { nodes: [{ id: 't', type: 'TRIGGER', data: {} }, filter], edges: [{ source: 't', target: 'f' }] };

export async function main(client: Flowctl): Promise<string> {
    const { workflowId } = await client.workflows.create({ name: 'typed', graph });
    const upload: Upload = await client.uploads.create('./people.csv', { filename: 'people.csv' });
    for await (const workflow of client.workflows.list()) {
        const summary: WorkflowSummary = workflow;
        summary.graph.nodes.map((node) => node.type);
    }
    const run: Run = await client.runs.enqueueAndWait(workflowId, { timeoutMs: 60_000, onUpdate: (r) => r.nodes.map((n) => n.status) });
    const status: 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'CANCELLED' = run.status;
    try {
        await client.runs.retrieve('nope');
    } catch (err) {
        if (err instanceof NotFoundError) return err.message;
    }
    return status + upload.uploadId;
}
`;

// The package does not depend on the store: it is packed, installed and type-checked once, in the
// embedded project only (vitest.config.ts); the SDK against PostgreSQL is the other suites' business.
describe('the packed package, installed outside the monorepo', () => {
    let t: TestServer;
    let project: string;

    beforeAll(async () => {
        t = await startTestServer();
        project = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-sdk-pack-'));
        // The SDK alone, as `npm i @flowctl/sdk` would get it: every dependency it names must come from
        // the registry (the engine is not published with it; its types are bundled into ours).
        const sdk = pack(Path.join(root, 'packages/sdk'), project);
        Fs.writeFileSync(Path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
        execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', sdk], { cwd: project, stdio: 'pipe' });
    });

    afterAll(async () => {
        await t?.close();
        if (project) {
            Fs.rmSync(project, { recursive: true, force: true });
        }
    });

    // Asynchronous: the server answering the child lives in this process.
    const node = async (file: string, source: string) => {
        Fs.writeFileSync(Path.join(project, file), source);
        const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: project, encoding: 'utf8', env: { ...process.env, FLOWCTL_URL: t.url } });
        return JSON.parse(stdout);
    };

    it('depends on no workspace package and installs nothing of flowctl but itself', () => {
        const manifest = JSON.parse(Fs.readFileSync(Path.join(project, 'node_modules/@flowctl/sdk/package.json'), 'utf8'));
        expect(Object.keys(manifest.dependencies ?? {})).toEqual(['undici']);
        expect(Fs.readdirSync(Path.join(project, 'node_modules/@flowctl'))).toEqual(['sdk']);
        for (const file of ['index.d.ts', 'index.d.cts']) {
            expect(Fs.readFileSync(Path.join(project, 'node_modules/@flowctl/sdk/dist', file), 'utf8')).not.toContain('@flowctl/engine');
        }
    });

    it('ships only dist and the README, with ESM, CJS and declarations', () => {
        const files = Fs.readdirSync(Path.join(project, 'node_modules/@flowctl/sdk/dist')).sort();
        expect(files).toEqual(expect.arrayContaining(['index.cjs', 'index.d.cts', 'index.d.ts', 'index.js']));
        expect(Fs.readdirSync(Path.join(project, 'node_modules/@flowctl/sdk')).sort()).toEqual(['README.md', 'dist', 'package.json']);
    });

    it('imports from ESM and talks to a server', async () => {
        expect(await node('esm.mjs', ESM)).toEqual({ same: true, auth: true, base: true, status: 401 });
    });

    it('requires from CommonJS and talks to a server', async () => {
        expect(await node('cjs.cjs', CJS)).toEqual({ auth: true, status: 401 });
    });

    it('type-checks a TypeScript program with tsc --noEmit (graph types bundled from the engine)', () => {
        Fs.writeFileSync(Path.join(project, 'main.ts'), TS);
        Fs.writeFileSync(
            Path.join(project, 'tsconfig.json'),
            JSON.stringify({
                compilerOptions: {
                    target: 'ES2023',
                    module: 'NodeNext',
                    moduleResolution: 'NodeNext',
                    strict: true,
                    noEmit: true,
                    skipLibCheck: false,
                    types: ['node'],
                    typeRoots: [Path.join(root, 'node_modules/@types')]
                },
                files: ['main.ts']
            })
        );
        const tsc = Path.join(root, 'node_modules/typescript/bin/tsc');
        let output = '';
        try {
            execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
        } catch (err) {
            output = String((err as { stdout?: string }).stdout);
        }
        expect(output).toBe('');
        // tsc checking the bundled declarations without skipLibCheck: the slowest step here by far.
    });
});
