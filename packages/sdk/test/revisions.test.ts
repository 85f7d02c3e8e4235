import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BadRequestError, ConflictError, type Flowctl, NotFoundError, PreconditionFailedError } from '../src/index.js';
import { clientFor, signUp, startTestServer, type TestServer, triggerOnly } from './server.js';

// client.workflows.revisions and update's ifMatch against a real server.

describe('workflow revisions through the SDK', () => {
    let t: TestServer;
    let client: Flowctl;

    beforeAll(async () => {
        t = await startTestServer();
        client = clientFor(t, await signUp(t));
    });

    afterAll(async () => {
        await client?.close();
        await t?.close();
    });

    const graph = (id: string) => ({ ...triggerOnly(), nodes: [{ id, type: 'TRIGGER' as const, data: {} }] });

    it('lists, gets and restores revisions, and refuses a stale ifMatch with PreconditionFailedError', async () => {
        const { workflowId } = await client.workflows.create({ name: 'rev', graph: graph('a') });
        expect((await client.workflows.retrieve(workflowId)).revision).toBe(1);

        const second = await client.workflows.update(workflowId, { graph: graph('b') }, { ifMatch: 1 });
        expect(second.revision).toBe(2);
        const third = await client.workflows.update(workflowId, { name: 'rev 3' }, { ifMatch: '"r2"' });
        expect(third.revision).toBe(3);

        const stale = await client.workflows.update(workflowId, { name: 'lost' }, { ifMatch: 2 }).catch((err: unknown) => err);
        expect(stale).toBeInstanceOf(PreconditionFailedError);
        expect((stale as PreconditionFailedError).revision).toBe(3);
        await expect(client.workflows.update(workflowId, { name: 'bad' }, { ifMatch: 'r3' })).rejects.toBeInstanceOf(BadRequestError);

        const listed = [];
        for await (const revision of client.workflows.revisions.list(workflowId, { limit: 2 })) {
            listed.push([revision.revision, revision.name]);
        }
        expect(listed).toEqual([
            [3, 'rev 3'],
            [2, 'rev'],
            [1, 'rev']
        ]);

        expect((await client.workflows.revisions.get(workflowId, 1)).graph).toEqual(graph('a'));
        await expect(client.workflows.revisions.get(workflowId, 4)).rejects.toBeInstanceOf(NotFoundError);

        await expect(client.workflows.revisions.restore(workflowId, 1, { ifMatch: 2 })).rejects.toBeInstanceOf(PreconditionFailedError);
        const restored = await client.workflows.revisions.restore(workflowId, 1, { ifMatch: 3 });
        expect(restored).toMatchObject({ revision: 4, name: 'rev', graph: graph('a') });
    });

    it('shows the revision a run executed, and sends revision "latest" with a retry', async () => {
        const { workflowId } = await client.workflows.create({ name: 'runs', graph: graph('a') });
        const run = await client.runs.wait((await client.runs.enqueue(workflowId)).runId, { timeoutMs: 20_000 });
        expect(run.revision).toBe(1);
        await client.workflows.update(workflowId, { graph: graph('b') });
        for await (const summary of client.runs.list(workflowId)) {
            expect(summary.revision).toBe(1);
        }
        // A run that succeeded has nothing to retry (409): the body was taken (a body refused would be 400).
        const retried = await client.runs.retry(run.runId, { revision: 'latest' }).catch((err: unknown) => err);
        expect(retried).toBeInstanceOf(ConflictError);
        expect((retried as ConflictError).message).toMatch(/no failed e-mails left to retry/);
    });
});
