import { type ChildProcess, spawn } from 'node:child_process';
import FsSync from 'node:fs';
import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAIN, startListening } from './child.js';

// Issue 18 follow-up: FLOWCTL_DATA_DIR (embedded database, outbox with sign-in codes, uploads with
// people's addresses, secrets) must be private even when the operator's umask is the usual 022.

/** Every path under `dir` (itself included) that its group or others may read, write or enter, with its mode. */
const notPrivate = async (dir: string): Promise<string[]> => {
    const entries = await Fs.readdir(dir, { recursive: true });
    const found: string[] = [];
    for (const path of [dir, ...entries.map((entry) => Path.join(dir, entry))]) {
        const { mode } = await Fs.lstat(path);
        if ((mode & 0o077) !== 0) {
            found.push(`${(mode & 0o777).toString(8)} ${Path.relative(dir, path) || '.'}`);
        }
    }

    return found;
};

describe('the data directory is private', () => {
    let parent: string;
    let dataDir: string;
    let server: ChildProcess;
    let exited: Promise<unknown>;
    let url: string;

    beforeAll(async () => {
        parent = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-private-'));
        // A fresh data directory the server creates itself, as on a first start (on each attempt).
        dataDir = Path.join(parent, 'data');
        // The built server as an operator starts it, from a shell whose umask lets everyone read.
        const child = await startListening((port) => {
            FsSync.rmSync(dataDir, { recursive: true, force: true });
            const env = { PATH: process.env.PATH, HOME: process.env.HOME, FLOWCTL_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
            return spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" "$1" --role=all', process.execPath, MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        });
        server = child.process;
        exited = child.exited;
        url = child.url!;
    });

    afterAll(async () => {
        if (server.exitCode === null && server.signalCode === null) {
            server.kill('SIGTERM');
        }

        await exited;
        await Fs.rm(parent, { recursive: true, force: true });
    });

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    it('keeps the database, outbox, uploads and secrets 0600 in 0700 folders, whatever the umask', async () => {
        const email = 'private@example.test';
        expect((await post('/api/auth/register', { email, password: 'long enough', fullName: 'P' })).status).toBe(201);
        const outbox = Path.join(dataDir, 'outbox');
        const [mail] = await Fs.readdir(outbox);
        const otp = /verification code is (\d{6})/.exec(await Fs.readFile(Path.join(outbox, mail!), 'utf8'))?.[1];
        const verified = await post('/api/auth/verify-email', { email, otp });
        expect(verified.status).toBe(200);
        const { accessToken } = (await verified.json()) as { accessToken: string };

        const form = new FormData();
        form.append('file', new Blob(['name,email\nAda,ada@example.test\n'], { type: 'text/csv' }), 'people.csv');
        const upload = await fetch(`${url}/api/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${accessToken}` } });
        expect(upload.status).toBe(201);

        // Each kind of file is there, so the check below covers them all.
        for (const part of ['pg/PG_VERSION', 'secrets.json', 'outbox', 'uploads']) {
            await expect(Fs.stat(Path.join(dataDir, part)), part).resolves.toBeTruthy();
        }
        expect((await Fs.readdir(Path.join(dataDir, 'uploads'), { recursive: true })).length).toBeGreaterThan(0);

        expect(await notPrivate(dataDir)).toEqual([]);

        // And after a clean stop, whatever the database wrote on the way out.
        server.kill('SIGTERM');
        await exited;
        expect(await notPrivate(dataDir)).toEqual([]);
    });
});
