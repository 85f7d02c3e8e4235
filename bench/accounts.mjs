// Log-in and authenticated-request throughput of the built server, on the embedded store and on
// PostgreSQL. Log-in is dominated by scrypt by design; GET /api/auth/me shows the per-request cost of
// auth (JWT check), rate limiting and one SELECT.
import { createClient, expectStatus, forSeconds, pool } from './lib/load.mjs';
import { createAccount, jsonRequest, startServer } from './lib/server.mjs';

const LOGIN_SEQUENTIAL = 40;
const LOGIN_CONCURRENT = 80;
const LOGIN_CONCURRENCY = 8;
// Log-in is limited to 10 attempts a minute per client address and e-mail address, so the runs
// spread over enough accounts to stay under it.
const LOGIN_ACCOUNTS = 16;
const ME_SECONDS = 3;
const ME_CONCURRENCY = 16;

// The per-account and per-IP limits (1,200 and 2,400 a minute) would answer 429 within a second of
// this load; raised, they are still counted on every request, so their cost is in the figures.
const env = { RATE_LIMIT_PER_ACCOUNT: '100000000', RATE_LIMIT_PER_IP: '100000000' };

const rate = (count, ms) => `${((count * 1000) / ms).toFixed(1)} req/s`;

const bench = async (store) => {
    const server = await startServer({ store, env });
    if (!server) {
        return;
    }

    try {
        const accounts = [];
        for (let i = 0; i < LOGIN_ACCOUNTS; i++) {
            accounts.push(await createAccount(server));
        }

        const login = async (i) => {
            const { email, password } = accounts[i % accounts.length];
            expectStatus(await jsonRequest(server, 'POST', '/api/auth/login', { email, password }), 200, 'login');
        };

        const sequential = await pool(LOGIN_SEQUENTIAL, 1, login);
        console.log(`${store}: POST /api/auth/login, sequential: ${rate(LOGIN_SEQUENTIAL, sequential)} (${(sequential / LOGIN_SEQUENTIAL).toFixed(1)} ms each)`);
        const concurrent = await pool(LOGIN_CONCURRENT, LOGIN_CONCURRENCY, (i) => login(i + LOGIN_SEQUENTIAL));
        console.log(`${store}: POST /api/auth/login, ${LOGIN_CONCURRENCY} concurrent: ${rate(LOGIN_CONCURRENT, concurrent)}`);

        const { token } = accounts[0];
        const client = createClient(ME_CONCURRENCY);
        const me = async () => expectStatus(await client.request(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }), 200, 'me');
        const [seqCount, seqMs] = await forSeconds(ME_SECONDS, 1, me);
        console.log(`${store}: GET /api/auth/me, sequential: ${rate(seqCount, seqMs)} (${((seqMs * 1000) / seqCount).toFixed(0)} µs each)`);
        const [conCount, conMs] = await forSeconds(ME_SECONDS, ME_CONCURRENCY, me);
        console.log(`${store}: GET /api/auth/me, ${ME_CONCURRENCY} concurrent: ${rate(conCount, conMs)}`);
        client.close();
        console.log(`${store}: server RSS after the runs: ${(server.rssBytes() / 2 ** 20).toFixed(0)} MiB`);
    } finally {
        await server.stop();
    }
};

// As SCRYPT_PARAMS in apps/server/src/services/passwords.ts (the test suite checks the stored form).
const params = { N: 32768, r: 8, p: 1 };
console.log(`scrypt cost per log-in: N=${params.N} r=${params.r} p=${params.p} (${(128 * params.N * params.r) / 2 ** 20} MiB), one hash per log-in`);
for (const store of ['embedded', 'postgres']) {
    await bench(store);
}
