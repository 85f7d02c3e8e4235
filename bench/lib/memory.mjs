// Memory figures of the processes a benchmark runs: RSS from /proc, the PostgreSQL backends serving one
// database, and the server's own split (V8 heap, external memory) from its /metrics.
import Fs from 'node:fs';

export const MB = 1024 * 1024;
export const mb = (bytes) => (Number.isFinite(bytes) ? `${Math.round(bytes / MB)} MB` : 'n/a');

const statusField = (status, field) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0) * 1024;

/** VmRSS and RssAnon of a process (bytes), or null when it is gone. */
export const processRss = (pid) => {
    try {
        const status = Fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        return { rss: statusField(status, 'VmRSS'), anon: statusField(status, 'RssAnon') };
    } catch {
        return null;
    }
};

/**
 * The summed RSS of the PostgreSQL backends serving `database` on this machine (their process title
 * names it), and how many there are. RSS includes the shared buffers each one touched, so the sum
 * counts shared memory more than once; `anon` is each backend's private memory only.
 */
export const postgresBackendsRss = (database) => {
    let rss = 0;
    let anon = 0;
    let count = 0;
    for (const entry of Fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) {
            continue;
        }

        let title;
        try {
            title = Fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        } catch {
            continue;
        }

        if (!title.startsWith('postgres: ') || !title.split(/\s+/).includes(database)) {
            continue;
        }

        const figures = processRss(entry);
        if (figures) {
            rss += figures.rss;
            anon += figures.anon;
            count++;
        }
    }

    return { rss, anon, count };
};

/** The server's process figures from its Prometheus /metrics (prom-client's default metrics). */
export const serverMemory = async (server) => {
    try {
        const text = await (await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
        const metric = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
        return {
            rss: metric('process_resident_memory_bytes'),
            heapUsed: metric('nodejs_heap_size_used_bytes'),
            heapTotal: metric('nodejs_heap_size_total_bytes'),
            external: metric('nodejs_external_memory_bytes')
        };
    } catch {
        return { rss: Number.NaN, heapUsed: Number.NaN, heapTotal: Number.NaN, external: Number.NaN };
    }
};

export const describeMemory = (m) => `RSS ${mb(m.rss)} (V8 heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)})`;

/**
 * Samples `read()` every `everyMs` until stop(); stop() answers the highest value seen. `read` answers a
 * number (bytes) or null (nothing to sample).
 */
export const peakSampler = (read, everyMs = 200) => {
    let peak = 0;
    let running = true;
    const loop = (async () => {
        while (running) {
            peak = Math.max(peak, read() ?? 0);
            await new Promise((resolve) => setTimeout(resolve, everyMs));
        }
    })();
    return {
        get peak() {
            return peak;
        },
        async stop() {
            running = false;
            await loop;
            peak = Math.max(peak, read() ?? 0);
            return peak;
        }
    };
};

/** NODE_OPTIONS for a server whose garbage a benchmark can have collected (collectGarbage()). */
export const INSPECTABLE = { NODE_OPTIONS: '--inspect=127.0.0.1:0' };

/**
 * A full garbage collection in a server started with INSPECTABLE, through the inspector protocol (the
 * server exposes no gc). It tells memory the server still holds from garbage V8 has not collected yet:
 * an idle process allocates nothing, so nothing makes V8 collect.
 */
export const collectGarbage = async (server) => {
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(server.output.join(''))?.[1];
    if (!url) {
        throw new Error('the server was not started with INSPECTABLE');
    }

    const { WebSocket } = await import('undici');
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = () => reject(new Error(`could not reach the inspector at ${url}`));
    });
    try {
        await new Promise((resolve, reject) => {
            socket.onmessage = (event) => {
                if (JSON.parse(event.data).id === 1) {
                    resolve();
                }
            };
            socket.onerror = () => reject(new Error('the inspector connection failed'));
            socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
        });
    } finally {
        socket.close();
    }
};
