import Pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REDACT_PATHS } from '../src/http/redact.js';

import { createAccount, type TestAccount } from './fixtures.js';
import { startWithGoogle } from './google-server.js';
import { type GoogleStub, startGoogleStub } from './google-stub.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

const CALLBACK = '/api/integrations/google/callback';

describe('Google link', () => {
    let stub: GoogleStub;
    let t: TestServer;

    beforeAll(async () => {
        stub = await startGoogleStub();
        // A small upload limit, so that a Drive file can be over it.
        t = await startWithGoogle(stub, { maxUploadBytes: 256 });
    });

    afterAll(async () => {
        await t?.close();
        await stub?.close();
    });

    const connect = async (account: TestAccount): Promise<string> => {
        const res = await t.request({ method: 'GET', url: '/api/integrations/google/connect', headers: account.headers });
        expect(res.statusCode, res.payload).toBe(302);
        return res.headers.location as string;
    };

    /** connect → consent at the stand-in → the callback the browser lands on. */
    const link = async (account: TestAccount) => {
        const back = new URL(stub.consent(await connect(account)));
        return t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    };

    const status = async (account: TestAccount) => (await t.request({ method: 'GET', url: '/api/integrations/google/status', headers: account.headers })).json;

    it('redirects to the consent page with offline access, consent, the three scopes, PKCE and a state', async () => {
        const account = await createAccount(t);
        const location = new URL(await connect(account));
        expect(`${location.origin}${location.pathname}`).toBe(`${stub.url}/o/oauth2/v2/auth`);
        const query = Object.fromEntries(location.searchParams);
        expect(query).toMatchObject({
            client_id: stub.clientId,
            redirect_uri: `${t.url}${CALLBACK}`,
            response_type: 'code',
            access_type: 'offline',
            prompt: 'consent',
            scope: 'openid email https://www.googleapis.com/auth/drive.readonly',
            code_challenge_method: 'S256'
        });
        expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
        expect(query.state).toContain(account.accountId);
    });

    it('takes the token from ?access_token= for a browser, and answers {url} with ?format=json', async () => {
        const account = await createAccount(t);
        const viaQuery = await t.request({ method: 'GET', url: `/api/integrations/google/connect?access_token=${account.token}` });
        expect(viaQuery.statusCode).toBe(302);
        expect(viaQuery.headers.location).toContain(`${stub.url}/o/oauth2/v2/auth?`);

        const asJson = await t.request({ method: 'GET', url: '/api/integrations/google/connect?format=json', headers: account.headers });
        expect(asJson.statusCode).toBe(200);
        expect(asJson.json.url).toContain(`${stub.url}/o/oauth2/v2/auth?`);

        const anonymous = await t.request({ method: 'GET', url: '/api/integrations/google/connect' });
        expect(anonymous.statusCode).toBe(401);
        const forged = await t.request({ method: 'GET', url: '/api/integrations/google/connect?access_token=not-a-token' });
        expect(forged.statusCode).toBe(401);
    });

    it('never lets an answer of /connect be cached or its address leak as a Referer, whatever the answer', async () => {
        const account = await createAccount(t);
        const answers = [
            await t.request({ method: 'GET', url: `/api/integrations/google/connect?access_token=${account.token}` }),
            await t.request({ method: 'GET', url: '/api/integrations/google/connect', headers: account.headers }),
            await t.request({ method: 'GET', url: '/api/integrations/google/connect?format=json', headers: account.headers }),
            await t.request({ method: 'GET', url: '/api/integrations/google/connect' }),
            await t.request({ method: 'GET', url: '/api/integrations/google/connect?access_token=not-a-token' }),
            await t.request({ method: 'GET', url: `/api/integrations/google/connect?access_token=${account.token}&format=xml` })
        ];
        expect(answers.map((res) => res.statusCode)).toEqual([302, 302, 200, 401, 401, 400]);
        for (const res of answers) {
            expect(res.headers['cache-control'], String(res.statusCode)).toBe('no-store');
            expect(res.headers['referrer-policy'], String(res.statusCode)).toBe('no-referrer');
        }

        // A token in the address of any other route is as exposed.
        const elsewhere = await t.request({ method: 'GET', url: `/api/integrations/google/status?access_token=${account.token}` });
        expect(elsewhere.statusCode).toBe(401);
        expect(elsewhere.headers['cache-control']).toBe('no-store');
        expect(elsewhere.headers['referrer-policy']).toBe('no-referrer');
    });

    it('links the account: the callback page says so, status shows the e-mail, tokens are encrypted at rest', async () => {
        const account = await createAccount(t);
        expect(await status(account)).toEqual({ connected: false });

        const page = await link(account);
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.payload).toContain('Google account linked');
        expect(page.payload).toContain(stub.email);

        expect(await status(account)).toEqual({ connected: true, email: stub.email });
        const row = await t.app.ctx.db.one<Record<string, string>>('SELECT * FROM google_links WHERE account_id = $1', [account.accountId]);
        expect(row!.refresh_token_enc).toMatch(/^v1\./);
        expect(JSON.stringify(row)).not.toMatch(/refresh-[0-9a-f]{24}|access-[0-9a-f]{24}/);
    });

    it('refuses a state that was reused, tampered with, expired, or issued to another account', async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const callbackOf = async (who: TestAccount) => new URL(stub.consent(await connect(who)));
        const open = (url: URL) => t.request({ method: 'GET', url: `${url.pathname}${url.search}` });

        const once = await callbackOf(account);
        expect((await open(once)).statusCode).toBe(200);
        const again = await open(once);
        expect(again.statusCode).toBe(400);
        expect(again.payload).toContain('already used');

        const tampered = await callbackOf(account);
        const state = tampered.searchParams.get('state')!;
        tampered.searchParams.set('state', `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`);
        expect((await open(tampered)).payload).toContain('not valid');

        const swapped = await callbackOf(other);
        swapped.searchParams.set('state', swapped.searchParams.get('state')!.replace(other.accountId, account.accountId));
        expect((await open(swapped)).statusCode).toBe(400);

        const late = await callbackOf(other);
        await t.app.ctx.db.query("UPDATE google_oauth_states SET expires_at = now() - interval '1 second' WHERE account_id = $1", [other.accountId]);
        expect((await open(late)).payload).toContain('expired');

        expect(await status(other)).toEqual({ connected: false });
    });

    it('says so when consent is denied, and links nothing', async () => {
        const account = await createAccount(t);
        const back = new URL(stub.consent(await connect(account), 'deny'));
        const page = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
        expect(page.statusCode).toBe(403);
        expect(page.payload).toContain('Consent was not given');
        expect(await status(account)).toEqual({ connected: false });
    });

    it('disconnects: revokes the token at Google and forgets it', async () => {
        const account = await createAccount(t);
        await link(account);
        const revokedBefore = stub.revoked.length;
        const res = await t.request({ method: 'DELETE', url: '/api/integrations/google', headers: account.headers });
        expect(res.statusCode).toBe(204);
        expect(res.payload).toBe('');
        expect(stub.revoked.length).toBe(revokedBefore + 1);
        expect(await status(account)).toEqual({ connected: false });
    });

    describe('Drive files as a DATA_SOURCE', () => {
        const csv = 'email,name,age\nada@example.test,Ada,36\nbob@example.test,Bob,17\n';
        const graph = (data: Record<string, string>) => ({
            nodes: [
                { id: 'start', type: 'TRIGGER', data: {} },
                { id: 'people', type: 'DATA_SOURCE', data },
                { id: 'adults', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age >= 18' } },
                { id: 'send', type: 'OUTPUT', data: { forEach: '{{adults.items}}', to: '{{item.email}}', subject: 'Hi {{item.name}}', body: 'Hello' } }
            ],
            edges: [
                { source: 'start', target: 'people' },
                { source: 'people', target: 'adults' },
                { source: 'adults', target: 'send' }
            ]
        });

        beforeAll(() => {
            stub.files.set('csv-file', { name: 'contacts.csv', mimeType: 'text/csv', content: csv });
            stub.files.set('sheet-file', {
                name: 'Contacts',
                mimeType: 'application/vnd.google-apps.spreadsheet',
                sheets: {
                    First: [
                        ['email', 'name', 'age'],
                        ['cy@example.test', 'Cy', '40']
                    ],
                    'Second sheet': [
                        ['email', 'name', 'age'],
                        ['di@example.test', 'Di', '50'],
                        ['ed@example.test', 'Ed', '12']
                    ]
                }
            });
            stub.files.set('pdf-file', { name: 'report.pdf', mimeType: 'application/pdf', content: '%PDF' });
            stub.files.set('private-file', { name: 'private.csv', mimeType: 'text/csv', content: csv, owner: 'someone-else@gmail.test' });
            stub.files.set('big-file', { name: 'big.csv', mimeType: 'text/csv', content: `a\n${'1\n'.repeat(200)}` });
            stub.files.set('big-sheet', {
                name: 'Big',
                mimeType: 'application/vnd.google-apps.spreadsheet',
                sheets: { Only: [['a'], ...Array.from({ length: 200 }, (_, i) => [String(i)])] }
            });
        });

        const runWith = async (account: TestAccount, data: Record<string, string>) => {
            const api = runsApi(t, account);
            return api.run(await api.workflow(graph(data)));
        };

        it('reads a Drive CSV, a Sheet (first sheet) and a named sheet through the same typing as uploads', async () => {
            const account = await createAccount(t);
            await link(account);
            const fromCsv = await runWith(account, { driveFileId: 'csv-file' });
            expect(fromCsv.status, JSON.stringify(fromCsv.nodes)).toBe('SUCCESS');
            expect(fromCsv.result).toMatchObject({ totalRows: 2, filteredOut: 1, emailsSent: 1 });

            const fromSheet = await runWith(account, { driveFileId: 'sheet-file' });
            expect(fromSheet.result).toMatchObject({ totalRows: 1, emailsSent: 1 });
            const named = await runWith(account, { driveFileId: 'sheet-file', sheet: 'Second sheet' });
            expect(named.result).toMatchObject({ totalRows: 2, filteredOut: 1, emailsSent: 1 });
            expect(t.smtp.messages.map((m) => m.to[0])).toEqual(expect.arrayContaining(['ada@example.test', 'cy@example.test', 'di@example.test']));
        });

        it('refreshes an expired access token itself and keeps the new one', async () => {
            const account = await createAccount(t);
            await link(account);
            const before = await t.app.ctx.db.one<{ access_token_enc: string }>('SELECT access_token_enc FROM google_links WHERE account_id = $1', [
                account.accountId
            ]);
            stub.expireAccessTokens();
            const refreshes = stub.refreshes;
            const run = await runWith(account, { driveFileId: 'csv-file' });
            expect(run.status, JSON.stringify(run.nodes)).toBe('SUCCESS');
            expect(stub.refreshes).toBeGreaterThan(refreshes);
            await expect
                .poll(async () => (await t.app.ctx.db.one<{ access_token_enc: string }>('SELECT access_token_enc FROM google_links WHERE account_id = $1', [account.accountId]))!.access_token_enc)
                .not.toBe(before!.access_token_enc);
        });

        it('marks the link disconnected when Google revoked it, and the node says to link again', async () => {
            const account = await createAccount(t);
            await link(account);
            stub.expireAccessTokens();
            stub.revokeRefreshTokens();
            const run = await runWith(account, { driveFileId: 'csv-file' });
            expect(run.status).toBe('FAILED');
            expect(runsApi(t, account).node(run, 'people').error).toBe('Google access was revoked: link the account again (GET /api/integrations/google/connect)');
            expect(await status(account)).toEqual({ connected: false });
        });

        it('fails the node with a readable error for a missing file, no permission, a PDF, a file over the limit, or no link', async () => {
            const account = await createAccount(t);
            const errorOf = async (data: Record<string, string>) => runsApi(t, account).node(await runWith(account, data), 'people').error;
            expect(await errorOf({ driveFileId: 'csv-file' })).toBe('no Google account is linked to this account: link one with GET /api/integrations/google/connect');

            await link(account);
            expect(await errorOf({ driveFileId: 'nope' })).toBe("Google Drive file 'nope' was not found, or the linked Google account cannot see it");
            expect(await errorOf({ driveFileId: 'private-file' })).toBe(
                "the linked Google account may not read Google Drive file 'private-file': share it with that account"
            );
            expect(await errorOf({ driveFileId: 'pdf-file' })).toBe(
                "Google Drive file 'report.pdf' is application/pdf: a DATA_SOURCE reads CSV files and Google Sheets only"
            );
            expect(await errorOf({ driveFileId: 'big-file' })).toBe("Google Drive file 'big.csv' is larger than MAX_UPLOAD_BYTES (402 > 256 bytes)");
            expect(await errorOf({ driveFileId: 'big-sheet' })).toBe("Google Drive file 'Big' is larger than MAX_UPLOAD_BYTES (256 bytes)");
            expect(await errorOf({ driveFileId: 'csv-file', sheet: 'x' })).toBe("Google Drive file 'contacts.csv' is not a Google Sheet, so it has no sheet 'x': remove 'sheet'");
        });
    });
});

describe('Google link logs', () => {
    it('never carry a Google code, token or state, even at trace level and when Google fails', async () => {
        const lines: string[] = [];
        const output = () => lines.join('');
        const stub = await startGoogleStub();
        const t = await startWithGoogle(stub, {}, Pino({ level: 'trace', redact: REDACT_PATHS }, { write: (line: string) => lines.push(line) }));
        try {
            const account = await createAccount(t);
            const states: string[] = [];
            const open = async (code?: string) => {
                const connect = await t.request({ method: 'GET', url: `/api/integrations/google/connect?access_token=${account.token}` });
                const back = new URL(stub.consent(connect.headers.location as string));
                states.push(back.searchParams.get('state')!);
                if (code) {
                    back.searchParams.set('code', code);
                }

                return t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
            };
            expect((await open()).statusCode).toBe(200);
            stub.files.set('f', { name: 'f.csv', mimeType: 'text/csv', content: 'email\na@example.test\n' });
            stub.expireAccessTokens();
            const api = runsApi(t, account);
            const graph = {
                nodes: [
                    { id: 'start', type: 'TRIGGER', data: {} },
                    { id: 'people', type: 'DATA_SOURCE', data: { driveFileId: 'f' } }
                ],
                edges: [{ source: 'start', target: 'people' }]
            };
            expect((await api.run(await api.workflow(graph))).status).toBe('SUCCESS');
            // An exchange Google refuses is logged as a warning.
            expect((await open(stub.issued.find((value) => value.startsWith('code-')))).statusCode).toBe(502);
            expect(output()).toContain('Google code exchange failed');
            stub.revokeRefreshTokens();
            stub.expireAccessTokens();
            expect((await api.run(await api.workflow(graph))).status).toBe('FAILED');

            expect(output()).toContain('"path":"/api/integrations/google/callback"');
            for (const secret of [...stub.issued, ...states, account.token]) {
                expect(output().includes(secret), `${secret} appears in the log`).toBe(false);
            }
        } finally {
            await t.close();
            await stub.close();
        }
    });
});

describe('Google link without an OAuth client', () => {
    it('answers 503 naming the variables to set, and status says not connected with no email key', async () => {
        const t = await startTestServer();
        try {
            const account = await createAccount(t);
            const res = await t.request({ method: 'GET', url: '/api/integrations/google/connect', headers: account.headers });
            expect(res.statusCode).toBe(503);
            expect(res.json.message).toContain('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI');
            // Every 503 says when to try again (store-failures.ts), this one too.
            expect(res.headers['retry-after']).toBe('5');
            const status = await t.request({ method: 'GET', url: '/api/integrations/google/status', headers: account.headers });
            expect(status.json).toEqual({ connected: false });
            expect(Object.hasOwn(status.json, 'email')).toBe(false);
        } finally {
            await t.close();
        }
    });
});

describe('a Drive file over RUN_MEMORY_MB', () => {
    it('stops loading it and fails the node saying how much was read and what to change', async () => {
        const stub = await startGoogleStub();
        const t = await startWithGoogle(stub, { runMemoryMb: 1 });
        try {
            // 100,000 tiny rows: 200 kB of CSV, about 10 MB once loaded.
            stub.files.set('tiny-rows', { name: 'tiny.csv', mimeType: 'text/csv', content: `a\n${'1\n'.repeat(100_000)}` });
            const account = await createAccount(t);
            const connect = await t.request({ method: 'GET', url: '/api/integrations/google/connect', headers: account.headers });
            const back = new URL(stub.consent(connect.headers.location as string));
            await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });

            const api = runsApi(t, account);
            const run = await api.run(
                await api.workflow({
                    nodes: [
                        { id: 'start', type: 'TRIGGER', data: {} },
                        { id: 'people', type: 'DATA_SOURCE', data: { driveFileId: 'tiny-rows' } }
                    ],
                    edges: [{ source: 'start', target: 'people' }]
                })
            );
            expect(run.status).toBe('FAILED');
            expect(api.node(run, 'people').error).toMatch(
                /^Google Drive file 'tiny\.csv' would need more memory than RUN_MEMORY_MB \(1 MB\) once loaded: over [\d,]+ rows \(\d+ MB\) read so far\. Split the file, have fewer nodes read its rows, or raise RUN_MEMORY_MB\.$/
            );
        } finally {
            await t.close();
            await stub.close();
        }
    });
});
