// A private PostgreSQL cluster for fault benchmarks (never the shared one on 5432): initdb into a temp
// folder as the `postgres` OS user, started on a free port, trust authentication on 127.0.0.1 only.
// stop() stops it and deletes the folder; call it in a finally.
import { spawnSync } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { freePort } from './server.mjs';

const binDir = () => {
    const root = '/usr/lib/postgresql';
    const versions = Fs.existsSync(root) ? Fs.readdirSync(root).filter((v) => Fs.existsSync(Path.join(root, v, 'bin', 'initdb'))) : [];
    if (versions.length === 0) {
        return null;
    }

    return Path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
};

// As root, PostgreSQL's tools refuse to run: they run as the postgres user.
const asPostgres = (bin, args) => {
    const asRoot = process.getuid?.() === 0;
    const result = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' }) : spawnSync(bin, args, { encoding: 'utf8' });
    if (result.status !== 0) {
        throw new Error(`${Path.basename(bin)} ${args.join(' ')} failed: ${result.stderr || result.stdout || result.error?.message}`);
    }

    return result.stdout;
};

/** The cluster, or null (after a note) when PostgreSQL's binaries are not installed. */
export const startPrivatePostgres = async () => {
    const bin = binDir();
    if (!bin) {
        console.log('note: no /usr/lib/postgresql/*/bin/initdb: skipping (needs a PostgreSQL installation)');
        return null;
    }

    const folder = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-bench-pg-'));
    const data = Path.join(folder, 'data');
    if (process.getuid?.() === 0) {
        const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
        const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
        Fs.chownSync(folder, uid, gid);
    }

    const port = await freePort();
    const stop = () => {
        try {
            asPostgres(Path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } catch {
            // Not running (never started, or already stopped).
        }

        Fs.rmSync(folder, { recursive: true, force: true });
    };

    try {
        asPostgres(Path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
        asPostgres(Path.join(bin, 'pg_ctl'), [
            '-D',
            data,
            '-l',
            Path.join(folder, 'log'),
            '-w',
            '-o',
            `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`,
            'start'
        ]);
    } catch (err) {
        stop();
        throw err;
    }

    return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        /** The postmaster and every process it started (backends, checkpointer, walwriter...). */
        pids() {
            const postmaster = Number(Fs.readFileSync(Path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
            const children = [];
            for (const entry of Fs.readdirSync('/proc')) {
                if (!/^\d+$/.test(entry)) {
                    continue;
                }

                try {
                    // Field 4 of stat is the parent; the command (field 2) may hold spaces, so read after ')'.
                    const stat = Fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
                    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
                    if (ppid === postmaster) {
                        children.push(Number(entry));
                    }
                } catch {
                    // gone meanwhile
                }
            }

            return [postmaster, ...children];
        },
        stop
    };
};
