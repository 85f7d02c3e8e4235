// The cost of authentication on every request: GET /api/auth/me with an access token (the JWT and
// its session check, one account lookup) and with a personal API token, on the embedded store and
// on PostgreSQL, beside GET /healthz (no token, no store) as this machine's HTTP ceiling.
import { createClient, expectStatus, pool } from './lib/load.mjs';
import { createAccount, jsonRequest, postgresAvailable, startServer } from './lib/server.mjs';

const CONCURRENCY = 16;
const GETS = { embedded: 3000, postgres: 6000 };
// Requests before the measured ones, so that the server's JIT has settled.
const WARM_UP = 1000;
const RUNS = 3;

const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const { request, close: closeClient } = createClient(CONCURRENCY);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const rate = async (gets, url, headers, status) => {
    const task = async () => expectStatus(await request(url, { headers }), status, url);
    await pool(WARM_UP, CONCURRENCY, task);
    const figures = [];
    for (let run = 0; run < RUNS; run++) {
        figures.push((gets * 1000) / (await pool(gets, CONCURRENCY, task)));
    }

    return median(figures);
};

const bench = async (store) => {
    if (store === 'postgres' && !(await postgresAvailable())) {
        console.log('postgres  skipped: no PostgreSQL server answers');
        return;
    }

    const server = await startServer({ store, env });
    const report = (what, value) => console.log(`${store.padEnd(8)} ${what.padEnd(52)} ${`${value.toFixed(0)} req/s`.padStart(14)}`);
    try {
        const { token } = await createAccount(server);
        const created = await jsonRequest(server, 'POST', '/api/account/tokens', { name: 'bench' }, token);
        const gets = GETS[store];
        report(`GET /api/auth/me, access token (median of ${RUNS}x${gets})`, await rate(gets, `${server.url}/api/auth/me`, { authorization: `Bearer ${token}` }, 200));
        if (created.status === 201) {
            report(`GET /api/auth/me, API token (median of ${RUNS}x${gets})`, await rate(gets, `${server.url}/api/auth/me`, { authorization: `Bearer ${created.json.token}` }, 200));
        }

        report('  reference: GET /healthz (no token, no store)', await rate(gets, `${server.url}/healthz`, {}, 200));
    } finally {
        await server.stop();
    }
};

for (const store of ['embedded', 'postgres']) {
    await bench(store);
}

closeClient();
