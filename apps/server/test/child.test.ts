import { spawn } from 'node:child_process';
import Fs from 'node:fs';
import Http from 'node:http';
import Os from 'node:os';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { MAIN, startChild, startListening, stopChild } from './child.js';
import { createTestStore, store } from './harness.js';

// The harness's child servers (child.ts). One that is not ready in time was left running: the test
// never got it to stop, and it wrote into the store the test then removed (ENOTEMPTY), on a loaded
// machine where a start can take longer than the deadline.

/** Processes whose environment names `dataDir` as their data folder (what startChild gives a child). */
const processesOf = (dataDir: string): string[] =>
    Fs.readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
            try {
                return Fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`FLOWCTL_DATA_DIR=${dataDir}`);
            } catch {
                return false;
            }
        });

describe('startChild', () => {
    it('stops a server that is not ready within the deadline before it reports the failure', async () => {
        expect(Fs.existsSync(MAIN), `${MAIN} is missing: build the server first (npm run build)`).toBe(true);
        const testStore = await createTestStore();
        try {
            await expect(startChild('all', testStore, 'smtp://127.0.0.1:9', {}, process.execPath, 1)).rejects.toThrow('the server did not start');
            expect(processesOf(testStore.dataDir)).toEqual([]);
        } finally {
            await testStore.drop();
        }
    });
});

// Whatever the store: once.
if (store === 'embedded') {
    describe('startListening', () => {
        // Seen in CI: another test's server took the port chosen for a child and answered its /readyz; the
        // test then talked to that server (its e-mail went to the other test's SMTP sink).
        it('starts the child again on another port when another server took the first and answers on it', async () => {
            const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-child-'));
            const thief = Http.createServer((_req, res) => res.end('{}'));
            const ports: number[] = [];
            try {
                const child = await startListening((port) => {
                    ports.push(port);
                    if (ports.length === 1) {
                        thief.listen(port, '127.0.0.1');
                    }

                    const env = { PATH: process.env.PATH, HOME: process.env.HOME, FLOWCTL_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
                    return spawn(process.execPath, [MAIN, '--role=all'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
                });
                try {
                    expect(ports).toHaveLength(2);
                    expect(child.url).toBe(`http://127.0.0.1:${ports[1]}`);
                    expect((await fetch(`${child.url}/readyz`)).status).toBe(200);
                } finally {
                    await stopChild(child);
                }
            } finally {
                thief.close();
                Fs.rmSync(dataDir, { recursive: true, force: true });
            }
        });
    });
}
