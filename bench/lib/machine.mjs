// What the figures of `npm run bench` scale with. The same commit gave 366–442 trivial runs/s on one
// 2-core machine and 110–136 on another of the same kind, with the CPU per run tripled too: a figure
// says little without the machine's own. A bare node:http server answering keep-alive clients in the
// same process, for 2 s, is the yardstick printed first: compare figures whose yardsticks agree.
import Http from 'node:http';
import Os from 'node:os';

import { createClient, forSeconds } from './load.mjs';

const CLIENTS = 16;
const SECONDS = 2;

/** Requests per second a bare node:http server answers over loopback, client and server in this process. */
export const loopbackRate = async () => {
    const server = Http.createServer((_req, res) => res.end('ok'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/`;
    const client = createClient(CLIENTS);
    try {
        const [count, elapsed] = await forSeconds(SECONDS, CLIENTS, () => client.request(url));
        return (count * 1000) / elapsed;
    } finally {
        client.close();
        await new Promise((resolve) => server.close(resolve));
    }
};

/** One line naming the machine and its yardstick. */
export const describeMachine = async () => {
    const cpu = Os.cpus()[0]?.model ?? 'unknown CPU';
    const rate = await loopbackRate();
    return `machine: Node ${process.version}, ${Os.availableParallelism()} cores (${cpu}), load ${Os.loadavg()[0].toFixed(1)}; yardstick: bare node:http over loopback ${Math.round(rate).toLocaleString('en-US')} req/s`;
};
