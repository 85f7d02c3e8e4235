// What the figures of `npm run bench` scale with. The same commit gave 366–442 trivial runs/s on one
// 2-core machine and 110–136 on another of the same kind, with the CPU per run tripled too: a figure
// says little without the machine's own. A bare node:http server answering keep-alive clients in the
// same process, for 2 s, is the yardstick printed first: compare figures whose yardsticks agree.
import Http from 'node:http';
import Os from 'node:os';

const CLIENTS = 16;
const SECONDS = 2;

/** Requests per second a bare node:http server answers over loopback, client and server in this process. */
export const loopbackRate = () =>
    new Promise((resolve) => {
        const server = Http.createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1', async () => {
            const { port } = server.address();
            const agent = new Http.Agent({ keepAlive: true, maxSockets: CLIENTS });
            const get = () =>
                new Promise((done) =>
                    Http.get({ host: '127.0.0.1', port, agent }, (res) => {
                        res.resume();
                        res.on('end', done);
                    })
                );
            let count = 0;
            const started = performance.now();
            const until = started + SECONDS * 1000;
            await Promise.all(
                Array.from({ length: CLIENTS }, async () => {
                    while (performance.now() < until) {
                        await get();
                        count++;
                    }
                })
            );
            const rate = (count * 1000) / (performance.now() - started);
            agent.destroy();
            server.close(() => resolve(rate));
        });
    });

/** One line naming the machine and its yardstick. */
export const describeMachine = async () => {
    const cpu = Os.cpus()[0]?.model ?? 'unknown CPU';
    const rate = await loopbackRate();
    return `machine: Node ${process.version}, ${Os.availableParallelism()} cores (${cpu}), load ${Os.loadavg()[0].toFixed(1)}; yardstick: bare node:http over loopback ${Math.round(rate).toLocaleString('en-US')} req/s`;
};
