import Crypto from 'node:crypto';

import Pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REDACT_PATHS } from '../src/http/redact.js';
import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { runsApi } from './run-fixtures.js';

// Inbound triggers: POST /api/hooks/{hookId} starts a run whose TRIGGER outputs the posted rows.

const hooked = () => ({
    nodes: [
        { id: 'trigger', type: 'TRIGGER', data: { webhook: true } },
        {
            id: 'mail',
            type: 'OUTPUT',
            data: { forEach: '{{trigger.rows}}', to: '{{item.email}}', subject: '{{item.name}}, one of {{trigger.count}}', body: 'age {{item.age}}' }
        }
    ],
    edges: [{ source: 'trigger', target: 'mail' }]
});

describe('hooks', () => {
    const lines: string[] = [];
    let t: TestServer;
    let account: TestAccount;
    let api: ReturnType<typeof runsApi>;
    beforeAll(async () => {
        const logger = Pino({ level: 'trace', redact: REDACT_PATHS }, { write: (line: string) => lines.push(line) });
        t = await startTestServer({ logger, config: { maxUploadBytes: 4096, publicUrl: 'https://flowctl.example' } });
        account = await createAccount(t);
        api = runsApi(t, account);
    });
    afterAll(() => t.close());

    const create = async () => {
        const res = await api.call('POST', '/api/workflows', { name: 'hooked', graph: hooked() });
        expect(res.statusCode, res.payload).toBe(201);
        expect(res.json.hookUrl).toMatch(/^https:\/\/flowctl\.example\/api\/hooks\/[A-Za-z0-9_-]{43}$/);
        return { workflowId: res.json.workflowId as string, hookUrl: res.json.hookUrl as string };
    };

    const post = (hookUrl: string, payload: string | Buffer | object | undefined, headers: Record<string, string> = {}) =>
        t.request({
            method: 'POST',
            url: new URL(hookUrl).pathname,
            headers: { 'content-type': 'application/json', ...headers },
            ...(payload === undefined ? {} : { payload: typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload) })
        });

    it('shows the hook URL at create only; get and list say webhook: true', async () => {
        const { workflowId, hookUrl } = await create();
        const got = await api.call('GET', `/api/workflows/${workflowId}`);
        expect(got.json).toMatchObject({ webhook: true, paused: false });
        expect(got.payload).not.toContain(new URL(hookUrl).pathname.split('/').pop());
        const listed = await api.call('GET', '/api/workflows');
        expect(listed.payload).not.toContain(new URL(hookUrl).pathname.split('/').pop());
    });

    it.each([
        ['a JSON array', { 'content-type': 'application/json' }, JSON.stringify([{ name: 'Ada', email: 'ada@example.test', age: 36 }, { name: 'Bo', email: 'bo@example.test', age: '7' }])],
        ['{rows}', { 'content-type': 'application/json' }, JSON.stringify({ rows: [{ name: 'Ada', email: 'ada@example.test', age: 36 }, { name: 'Bo', email: 'bo@example.test', age: 7 }] })],
        ['CSV', { 'content-type': 'text/csv' }, 'name,email,age\nAda,ada@example.test,36\nBo,bo@example.test,7\n']
    ])('starts a run with %s: 202 {runId, status}; {{trigger.rows}} and {{trigger.count}} downstream, typed as CSV cells', async (_kind, headers, body) => {
        const { hookUrl } = await create();
        const before = t.smtp.messages.length;
        const res = await post(hookUrl, body, headers);
        expect(res.statusCode, res.payload).toBe(202);
        expect(res.json).toEqual({ runId: expect.stringMatching(/^run_/), status: 'PENDING' });
        const run = await api.waitFor(res.json.runId);
        expect(run.status).toBe('SUCCESS');
        expect(run.trigger).toEqual({ type: 'webhook' });
        expect(api.node(run, 'trigger').output).toMatchObject({ count: 2 });
        const mails = (await t.smtp.waitFor(before + 2)).slice(before);
        expect(mails.map((m) => m.subject).sort()).toEqual(['Ada, one of 2', 'Bo, one of 2']);
        const page = await api.call('GET', `/api/workflows/runs/${res.json.runId}/nodes/trigger/output`);
        expect(page.json.output.rows[1].age).toBe(7);
    });

    it('starts a run with no rows when there is no body', async () => {
        const { hookUrl } = await create();
        const res = await post(hookUrl, undefined);
        expect(res.statusCode, res.payload).toBe(202);
        const run = await api.waitFor(res.json.runId);
        expect(api.node(run, 'trigger').output).toMatchObject({ count: 0 });
    });

    it('honours Idempotency-Key: a retry of the same request starts one run', async () => {
        const { workflowId, hookUrl } = await create();
        const key = Crypto.randomUUID();
        const body = [{ name: 'Ada', email: 'ada@example.test', age: 1 }];
        const first = await post(hookUrl, body, { 'idempotency-key': key });
        const again = await post(hookUrl, body, { 'idempotency-key': key });
        expect(again.statusCode).toBe(202);
        expect(again.json.runId).toBe(first.json.runId);
        expect(again.headers['idempotent-replayed']).toBe('true');
        await api.waitFor(first.json.runId);
        expect((await api.call('GET', `/api/workflows/${workflowId}/runs`)).json).toHaveLength(1);
    });

    it('starts no second run when a retry comes after the first answer was lost, and keeps no second upload', async () => {
        const { workflowId, hookUrl } = await create();
        const body = [{ name: 'Ada', email: 'ada@example.test', age: 1 }];
        const first = await post(hookUrl, body, { 'idempotency-key': 'hook-answer-lost' });
        expect(first.statusCode, first.payload).toBe(202);
        const uploads = async () =>
            Number((await t.app.ctx.db.query<{ n: number }>('SELECT count(*) AS n FROM uploads WHERE account_id = $1 AND hook', [account.accountId]))[0]!.n);
        const before = await uploads();
        expect(before).toBeGreaterThan(0);

        // The first request's connection dropped after its run was committed: it let its key go.
        await t.app.ctx.db.query("DELETE FROM idempotency_keys WHERE key = 'hook-answer-lost'");
        const again = await post(hookUrl, body, { 'idempotency-key': 'hook-answer-lost' });
        expect(again.statusCode, again.payload).toBe(202);
        expect(again.json.runId).toBe(first.json.runId);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(await uploads()).toBe(before);

        // Another body with the key, its answer lost again: 422, and its rows are not kept.
        await t.app.ctx.db.query("DELETE FROM idempotency_keys WHERE key = 'hook-answer-lost'");
        const other = await post(hookUrl, [{ name: 'Grace', email: 'grace@example.test', age: 2 }], { 'idempotency-key': 'hook-answer-lost' });
        expect(other.statusCode, other.payload).toBe(422);
        expect(await uploads()).toBe(before);
        await api.waitFor(first.json.runId);
        expect((await api.call('GET', `/api/workflows/${workflowId}/runs`)).json).toHaveLength(1);
    });

    it('rotation makes the old URL answer 404 at once, the new one works; the id never reaches the logs', async () => {
        const { workflowId, hookUrl } = await create();
        const rotated = await api.call('POST', `/api/workflows/${workflowId}/hook/rotate`);
        expect(rotated.statusCode, rotated.payload).toBe(200);
        expect(rotated.json.hookUrl).not.toBe(hookUrl);
        const old = await post(hookUrl, []);
        expect(old.statusCode).toBe(404);
        expect(old.json.message).toContain('Unknown hook');
        expect((await post(rotated.json.hookUrl, [])).statusCode).toBe(202);

        const logs = lines.join('');
        for (const url of [hookUrl, rotated.json.hookUrl as string]) {
            expect(logs).not.toContain(url.split('/').pop());
        }
        expect(logs).toContain('/api/hooks/sha256:');
    });

    it('answers 409 for a paused workflow and 404 for a deleted one, each saying which', async () => {
        const { workflowId, hookUrl } = await create();
        await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: true });
        const paused = await post(hookUrl, []);
        expect(paused.statusCode).toBe(409);
        expect(paused.json.message).toContain('is paused');
        await api.call('PATCH', `/api/workflows/${workflowId}`, { paused: false });
        expect((await post(hookUrl, [])).statusCode).toBe(202);
        // Deleting waits for the run just started, if it is still running.
        expect((await api.call('DELETE', `/api/workflows/${workflowId}`)).statusCode).toBe(204);
        const gone = await post(hookUrl, []);
        expect(gone.statusCode).toBe(404);
        expect(gone.json.message).toContain('deleted');
    });

    it('refuses bad bodies with a 4xx, never a 500', async () => {
        const { hookUrl } = await create();
        expect((await post(hookUrl, '{"rows": [')).statusCode).toBe(400);
        expect((await post(hookUrl, { people: [] })).statusCode).toBe(400);
        const nested = await post(hookUrl, [{ name: { first: 'Ada' } }]);
        expect(nested.statusCode).toBe(400);
        expect(nested.json.details[0].path).toBe('rows[0].name');
        expect((await post(hookUrl, [1, 2])).statusCode).toBe(400);
        expect((await post(hookUrl, 'name,name\na,b\n', { 'content-type': 'text/csv' })).statusCode).toBe(400);
        expect((await post(hookUrl, 'name,email\n"unterminated,x\n', { 'content-type': 'text/csv' })).statusCode).toBe(400);
        expect((await post(hookUrl, '<rows/>', { 'content-type': 'application/xml' })).statusCode).toBe(415);
        expect((await post(hookUrl, JSON.stringify([{ pad: 'x'.repeat(5000) }]))).statusCode).toBe(413);
        expect((await post('https://flowctl.example/api/hooks/not-a-hook', [])).statusCode).toBe(404);
        expect((await post(`https://flowctl.example/api/hooks/${'A'.repeat(43)}`, [])).statusCode).toBe(404);
    });

    it.each([
        ['a row whose values are all empty or null', '[{"email": ""}]', 'rows[0]', 'every value is empty or null'],
        ['one such row among others', '[{"email": "a@example.test", "name": "A"}, {"email": null, "name": " "}]', 'rows[1]', 'every value is empty or null'],
        ['an empty object', '[{"email": "a@example.test"}, {}]', 'rows[1]', 'every value is empty or null'],
        ['an empty key', '[{"": "x@example.com"}]', 'rows[0]', 'must not be empty'],
        ['an empty key beside others', '[{"": 1, "b": 2}]', 'rows[0]', 'must not be empty'],
        ['keys that trim to one name', '[{"name": "A"}, {" name": "B"}]', 'rows[1]', 'name one column'],
        ['a NUL character', '[{"name": "A\\u0000B"}]', 'rows[0].name', 'NUL character'],
        ['a lone surrogate', '[{"name": "A\\ud800B"}]', 'rows[0].name', 'lone UTF-16 surrogate'],
        ['a lone surrogate in a key', '[{"n\\udc00": "A"}]', 'rows[0]', 'lone UTF-16 surrogate'],
        ['invalid JSON', '[{"name": "A"}, {"name": ]', 'rows[1]', 'not valid JSON'],
        ['a trailing comma', '[{"name": "A"},]', 'rows[1]', 'not valid JSON']
    ])('refuses %s with a 400 naming the row, about the JSON body', async (_kind, body, path, message) => {
        const { hookUrl } = await create();
        const res = await post(hookUrl, body);
        expect(res.statusCode, res.payload).toBe(400);
        expect(res.json.message).toContain(path);
        expect(res.json.message).toContain(message);
        expect(res.json.message).toContain('JSON body');
        expect(res.json.message).not.toMatch(/file|Excel/);
    });

    it('refuses a JSON body that is not UTF-8 with a 400 giving the offset, not U+FFFD in the rows', async () => {
        const { hookUrl } = await create();
        const res = await post(hookUrl, Buffer.concat([Buffer.from('[{"name": "A'), Buffer.from([0xff]), Buffer.from('"}]')]));
        expect(res.statusCode, res.payload).toBe(400);
        expect(res.json.message).toBe('The JSON body is not UTF-8 text: byte 0xFF at offset 12 does not start a UTF-8 character. Send JSON as UTF-8.');
    });

    it('keeps every row posted: a row with one value among empty ones, a lone column, separators in names and values', async () => {
        const { workflowId } = await create();
        const graph = { nodes: [{ id: 'trigger', type: 'TRIGGER', data: { webhook: true } }], edges: [] };
        const res = await api.call('POST', '/api/workflows', { name: 'rows only', graph });
        expect(res.statusCode, res.payload).toBe(201);
        expect(workflowId).toBeDefined();
        const body = [{ 'a;b': '1;2' }, { 'a;b': '' , c: 'x' }, { 'a;b': 0 }, { 'a;b': false }, { 'a;b': '\t;' }];
        const started = await post(res.json.hookUrl, body);
        expect(started.statusCode, started.payload).toBe(202);
        const run = await api.waitFor(started.json.runId);
        expect(api.node(run, 'trigger').output).toMatchObject({ count: 5 });
        const page = await api.call('GET', `/api/workflows/runs/${started.json.runId}/nodes/trigger/output`);
        expect(page.json.output.rows.map((row: Record<string, unknown>) => row['a;b'])).toEqual(['1;2', null, 0, false, '\t;']);
    });

    it('rotating a workflow without a hook is a 409 saying how to add one', async () => {
        const workflowId = await api.workflow({ nodes: [{ id: 'trigger', type: 'TRIGGER', data: {} }], edges: [] });
        const res = await api.call('POST', `/api/workflows/${workflowId}/hook/rotate`);
        expect(res.statusCode).toBe(409);
        expect(res.json.message).toContain('webhook: true');
    });
});
