import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
    AuthenticationError,
    BadRequestError,
    ConflictError,
    type Flowctl,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    type Run
} from '../src/index.js';
import { clientFor, csv, freshEmail, newsletter, otpFor, randomName, resetCodeFor, type SignedUp, signUp, startTestServer, type TestServer, triggerOnly } from './server.js';

const TERMINAL = ['SUCCESS', 'FAILED', 'CANCELLED'];

describe('every resource against a real server', () => {
    let t: TestServer;
    let account: SignedUp;
    let client: Flowctl;

    beforeAll(async () => {
        t = await startTestServer();
        account = await signUp(t);
        client = clientFor(t, account);
    });

    afterAll(async () => {
        await client?.close();
        await t?.close();
    });

    it('auth: register, verifyEmail, resendOtp, login, refresh, me — the client adopts each new pair', async () => {
        const pairs: string[] = [];
        const anonymous = clientFor(t, undefined, { onTokens: (pair) => void pairs.push(pair.accessToken) });
        try {
            const email = freshEmail('sdk');
            const password = 'correct horse battery';
            expect(await anonymous.auth.register({ email, password, fullName: 'Ada Lovelace' })).toEqual({ message: expect.any(String) });
            await expect(anonymous.auth.login({ email, password })).rejects.toBeInstanceOf(PermissionDeniedError);
            // One code a minute per address, and the registration just sent one: the SDK says when to ask again.
            const resent = await anonymous.auth.resendOtp({ email }).catch((err: unknown) => err);
            expect(resent).toBeInstanceOf(RateLimitError);
            expect((resent as RateLimitError).retryAfter).toBeGreaterThan(0);
            expect(await anonymous.auth.resendOtp({ email: freshEmail('sdk-unknown') })).toEqual({ message: expect.any(String) });

            const verified = await anonymous.auth.verifyEmail({ email, otp: await otpFor(t, email) });
            expect(verified.accessToken).toEqual(expect.any(String));
            expect(verified.passwordSetupRequired).toBe(false);
            expect(pairs).toEqual([verified.accessToken]);
            expect(await anonymous.auth.me()).toMatchObject({ email, fullName: 'Ada Lovelace' });

            const loggedIn = await anonymous.auth.login({ email, password });
            const refreshed = await anonymous.auth.refresh();
            expect(refreshed.refreshToken).not.toBe(loggedIn.refreshToken);
            expect(anonymous.tokens?.accessToken).toBe(refreshed.accessToken);
            expect(pairs).toEqual([verified.accessToken, loggedIn.accessToken, refreshed.accessToken]);

            const wrong = await anonymous.auth.login({ email, password: 'wrong password!' }).catch((err: unknown) => err);
            expect(wrong).toBeInstanceOf(AuthenticationError);
            expect(wrong).toMatchObject({ status: 401, error: 'Unauthorized', requestId: expect.any(String) });

            // A fresh sign-in may set the password.
            // It names the API tokens it revoked with the sessions it ended, and those left: none here.
            expect(await anonymous.auth.setPassword({ newPassword: 'another horse battery' })).toEqual({ revokedApiTokens: [], apiTokens: [] });
            expect((await anonymous.auth.login({ email, password: 'another horse battery' })).accessToken).toEqual(expect.any(String));
        } finally {
            await anonymous.close();
        }
    });

    it('auth: forgotPassword e-mails a code, resetPassword sets the password and signs every session out', async () => {
        const mine = await signUp(t);
        const anonymous = clientFor(t, undefined);
        const signedIn = clientFor(t, mine);
        try {
            expect((await signedIn.auth.me()).email).toBe(mine.email);
            expect(await anonymous.auth.forgotPassword({ email: mine.email })).toEqual({ message: expect.any(String) });
            const wrong = await anonymous.auth.resetPassword({ email: mine.email, otp: '000000', newPassword: 'reset horse battery' }).catch((e: unknown) => e);
            expect(wrong).toBeInstanceOf(BadRequestError);

            await anonymous.auth.resetPassword({ email: mine.email, otp: await resetCodeFor(t, mine.email), newPassword: 'reset horse battery' });
            await expect(signedIn.auth.me()).rejects.toBeInstanceOf(AuthenticationError);
            await expect(anonymous.auth.login({ email: mine.email, password: mine.password })).rejects.toBeInstanceOf(AuthenticationError);
            expect((await anonymous.auth.login({ email: mine.email, password: 'reset horse battery' })).accessToken).toEqual(expect.any(String));
        } finally {
            await anonymous.close();
            await signedIn.close();
        }
    });

    it('a 400 carries the server message and every field problem in details', async () => {
        const err = await client.auth.register({ email: 'not-an-address', password: 'x', fullName: '' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(BadRequestError);
        const bad = err as BadRequestError;
        expect(bad.status).toBe(400);
        expect(bad.message).toMatch(/email/);
        expect(bad.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.any(String), message: expect.any(String) })]));
    });

    it('account.settings: get and update (the key write-only)', async () => {
        expect((await client.account.settings.get()).ai.apiKeySet).toBe(false);
        const updated = await client.account.settings.update({ ai: { apiKey: 'sk-test-0123456789abcd', model: 'gpt-test' } });
        expect(updated.ai).toMatchObject({ apiKeySet: true, apiKeyLast4: 'abcd', model: 'gpt-test' });
        expect(JSON.stringify(await client.account.settings.get())).not.toContain('sk-test');
    });

    it('account.tokens: create, list, revoke; an apiToken client uses it and never refreshes', async () => {
        const created = await client.account.tokens.create({ name: 'ci', expiresInDays: 30 });
        expect(created.token).toMatch(/^flc_/);
        const listed = await client.account.tokens.list().toArray();
        expect(listed.find((token) => token.id === created.id)).toMatchObject({ name: 'ci' });
        expect(JSON.stringify(listed)).not.toContain(created.token);

        const ci = clientFor(t, undefined, { apiToken: created.token });
        try {
            expect((await ci.auth.me()).email).toBe(account.email);
            await client.account.tokens.revoke(created.id);
            await expect(ci.auth.me()).rejects.toBeInstanceOf(AuthenticationError);
            expect(ci.tokens).toBeUndefined();
        } finally {
            await ci.close();
        }
    });

    it('uploads: create from a Buffer, list, retrieve, delete', async () => {
        const upload = await client.uploads.create(Buffer.from(csv(3)), { filename: 'people.csv' });
        expect(upload).toMatchObject({ filename: 'people.csv', rows: 3, columns: ['email', 'name', 'city'] });
        const listed = await client.uploads.list().toArray();
        expect(listed.map((u) => u.uploadId)).toContain(upload.uploadId);
        expect(await client.uploads.retrieve(upload.uploadId)).toEqual(upload);
        await client.uploads.delete(upload.uploadId);
        await expect(client.uploads.retrieve(upload.uploadId)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('workflows: create, list, retrieve, update, delete; an invalid graph is a 400 with details', async () => {
        const name = randomName('wf');
        const created = await client.workflows.create({ name, graph: triggerOnly() });
        expect(created).toMatchObject({ workflowId: expect.any(String), name });
        const page = await client.workflows.list().firstPage();
        expect(page.items.find((w) => w.id === created.workflowId)?.graph.nodes[0]?.type).toBe('TRIGGER');
        const renamed = await client.workflows.update(created.workflowId, { name: `${name}-2` });
        expect(renamed).toMatchObject({ id: created.workflowId, name: `${name}-2` });
        expect((await client.workflows.retrieve(created.workflowId)).name).toBe(`${name}-2`);

        const invalid = await client.workflows.create({ name, graph: { nodes: [], edges: [] } }).catch((e: unknown) => e);
        expect(invalid).toBeInstanceOf(BadRequestError);

        await client.workflows.delete(created.workflowId);
        await expect(client.workflows.retrieve(created.workflowId)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('workflows: a schedule with nextRunAt, pause and resume; a hook URL at create, rotateHook', async () => {
        const schedule = { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' };
        const { workflowId } = await client.workflows.create({ name: randomName('sched'), graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule } }], edges: [] } });
        const got = await client.workflows.retrieve(workflowId);
        expect(got.schedule).toEqual({ ...schedule, nextRunAt: expect.any(String), paused: false, skippedTicks: 0 });
        expect((await client.workflows.pause(workflowId)).schedule).toMatchObject({ paused: true, nextRunAt: null });
        expect((await client.workflows.resume(workflowId)).schedule).toMatchObject({ paused: false, nextRunAt: got.schedule?.nextRunAt });
        const bad = await client.workflows.create({ name: randomName('sched'), graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule: { cron: '61 * * * *' } } }], edges: [] } }).catch((e: unknown) => e);
        expect(bad).toBeInstanceOf(BadRequestError);
        expect((bad as BadRequestError).details).toEqual([{ path: 'graph.nodes[0].data.schedule.cron', message: expect.any(String) }]);

        const hooked = await client.workflows.create({ name: randomName('hook'), graph: { nodes: [{ id: 'start', type: 'TRIGGER', data: { webhook: true } }], edges: [] } });
        expect(hooked.hookUrl).toMatch(/\/api\/hooks\/[A-Za-z0-9_-]{43}$/);
        const { hookUrl } = await client.workflows.rotateHook(hooked.workflowId);
        expect(hookUrl).not.toBe(hooked.hookUrl);
        await expect(client.workflows.rotateHook(workflowId)).rejects.toBeInstanceOf(ConflictError);
    });

    it('workflows.preview: the first e-mails and the counts, sending nothing; an unsaved graph; bad input is a BadRequestError', async () => {
        const upload = await client.uploads.create(Buffer.from(csv(4)), { filename: 'preview.csv' });
        const { workflowId } = await client.workflows.create({ name: randomName('preview'), graph: newsletter(upload.uploadId) });
        const mails = t.smtp.messages.length;
        const preview = await client.workflows.preview(workflowId, { limit: 1 });
        expect(preview.emails).toEqual([
            { nodeId: 'send', index: 0, from: expect.any(String), to: 'person1@example.test', subject: 'Hi Person 1', text: 'See you in Paris.', suppressed: false }
        ]);
        expect(preview.result).toEqual({ totalRows: 4, filteredOut: 2, emailsToSend: 2, suppressed: 0 });
        expect(preview.nodes.map((n) => n.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);

        const edited = await client.workflows.preview(workflowId, { graph: newsletter(upload.uploadId, "city == 'Lyon'") });
        expect(edited.emails.map((e) => e.to)).toEqual(['person0@example.test', 'person2@example.test']);
        expect(t.smtp.messages.length).toBe(mails);

        await expect(client.workflows.preview(workflowId, { limit: 21 })).rejects.toBeInstanceOf(BadRequestError);
    });

    it('runs: enqueue, retrieve, list (following Link across pages), nodeOutput, wait; cancel of a finished run is a 409', async () => {
        const upload = await client.uploads.create(Buffer.from(csv(4)), { filename: 'four.csv' });
        const { workflowId } = await client.workflows.create({ name: randomName('news'), graph: newsletter(upload.uploadId) });

        const runIds: string[] = [];
        for (let i = 0; i < 3; i++) {
            const enqueued = await client.runs.enqueue(workflowId);
            expect(enqueued).toMatchObject({ status: 'PENDING', workflowId });
            runIds.push(enqueued.runId);
        }

        const updates: Run[] = [];
        const finished = await client.runs.wait(runIds[2]!, { onUpdate: (run) => updates.push(run) });
        expect(finished.status).toBe('SUCCESS');
        expect(updates.at(-1)).toEqual(finished);
        expect(finished.result).toEqual({ totalRows: 4, filteredOut: 2, emailsSent: 2 });
        expect((await client.runs.retrieve(runIds[0]!)).status).toBe('SUCCESS');

        const pages = [];
        for await (const page of client.runs.list(workflowId, { limit: 2, order: 'asc' }).pages()) {
            pages.push(page.items.map((run) => run.runId));
        }
        expect(pages).toEqual([runIds.slice(0, 2), runIds.slice(2)]);
        const all = [];
        for await (const run of client.runs.list(workflowId, { limit: 1 })) {
            all.push(run.runId);
        }
        expect(all).toEqual([...runIds].reverse());
        const first = await client.runs.list(workflowId, { limit: 2 }).firstPage();
        expect(first.hasNextPage()).toBe(true);
        expect((await first.getNextPage()).items.map((run) => run.runId)).toEqual([runIds[0]]);

        const output = await client.runs.nodeOutput(runIds[0]!, 'people', { offset: 1, limit: 2 });
        expect(output).toMatchObject({ nodeId: 'people', offset: 1, limit: 2, total: 4 });
        expect((output.output as { rows: unknown[] }).rows).toHaveLength(2);

        const conflict = await client.runs.cancel(runIds[0]!).catch((e: unknown) => e);
        expect(conflict).toBeInstanceOf(ConflictError);
        expect(TERMINAL).toContain((await client.runs.retrieve(runIds[1]!)).status);
    });

    it('runs.deliveries: who got what, walking Link pages, filtered by status; a bad status is a BadRequestError', async () => {
        const upload = await client.uploads.create(Buffer.from(csv(6)), { filename: 'ledger.csv' });
        const { workflowId } = await client.workflows.create({ name: randomName('ledger'), graph: newsletter(upload.uploadId) });
        const run = await client.runs.enqueueAndWait(workflowId);
        expect(run.status).toBe('SUCCESS');

        const all = [];
        for await (const delivery of client.runs.deliveries(run.runId, { limit: 2 })) {
            all.push(delivery);
        }
        expect(all.map((d) => [d.nodeId, d.index, d.to, d.status, d.attempts])).toEqual([
            ['send', 0, 'person1@example.test', 'sent', 1],
            ['send', 1, 'person3@example.test', 'sent', 1],
            ['send', 2, 'person5@example.test', 'sent', 1]
        ]);
        const first = await client.runs.deliveries(run.runId, { limit: 2 }).firstPage();
        expect(first.hasNextPage()).toBe(true);
        expect((await first.getNextPage()).items.map((d) => d.index)).toEqual([2]);

        const failed = [];
        for await (const delivery of client.runs.deliveries(run.runId, { status: 'failed' })) {
            failed.push(delivery);
        }
        expect(failed).toEqual([]);
        const bad = await client.runs
            .deliveries(run.runId, { status: 'bounced' as 'failed' })
            .firstPage()
            .catch((e: unknown) => e);
        expect(bad).toBeInstanceOf(BadRequestError);
        await expect(client.runs.deliveries('run_unknown').firstPage()).rejects.toBeInstanceOf(NotFoundError);
    });

    it('enqueueAndWait resolves with the finished run', async () => {
        const { workflowId } = await client.workflows.create({ name: randomName('quick'), graph: triggerOnly() });
        expect(await client.runs.enqueueAndWait(workflowId)).toMatchObject({ workflowId, status: 'SUCCESS' });
    });

    it('runs.cancel of a PENDING run (on a server without a worker)', async () => {
        const apiOnly = await startTestServer({ config: { role: 'api' } });
        const viaApi = clientFor(apiOnly, await signUp(apiOnly));
        try {
            const { workflowId } = await viaApi.workflows.create({ name: randomName('idle'), graph: triggerOnly() });
            const { runId } = await viaApi.runs.enqueue(workflowId);
            expect((await viaApi.runs.cancel(runId)).status).toBe('CANCELLED');
        } finally {
            await viaApi.close();
            await apiOnly.close();
        }
    });

    it('another account sees none of it: 404', async () => {
        const other = clientFor(t, await signUp(t));
        try {
            const { workflowId } = await client.workflows.create({ name: randomName('mine'), graph: triggerOnly() });
            await expect(other.workflows.retrieve(workflowId)).rejects.toBeInstanceOf(NotFoundError);
            await expect(other.runs.enqueue(workflowId)).rejects.toBeInstanceOf(NotFoundError);
        } finally {
            await other.close();
        }
    });

    it('integrations.google: status, the consent URL (503 naming the variables on a server without an OAuth client), disconnect', async () => {
        const paths: string[] = [];
        const traced = clientFor(t, account, {
            maxRetries: 0,
            fetch: async (url, init) => {
                paths.push(`${init.method} ${new URL(url).pathname}${new URL(url).search}`);
                return fetch(url, init as RequestInit);
            }
        });
        try {
            expect(await traced.integrations.google.status()).toEqual({ connected: false });
            const unconfigured = traced.integrations.google.connectUrl();
            await expect(unconfigured).rejects.toBeInstanceOf(InternalServerError);
            await expect(unconfigured).rejects.toMatchObject({ status: 503, message: expect.stringContaining('GOOGLE_CLIENT_ID') });
            await expect(traced.integrations.google.disconnect()).resolves.toBeUndefined();
            expect(paths).toEqual([
                'GET /api/integrations/google/status',
                'GET /api/integrations/google/connect?format=json',
                'DELETE /api/integrations/google'
            ]);
        } finally {
            await traced.close();
        }
    });
});
