// The API calls the run benchmarks share: upload a CSV, create a workflow, enqueue a run and wait for
// its end. `auth` is the `{ authorization }` header of an account (see createAccount). `send` is
// fetch, or load.mjs's leanFetch where the client's own CPU would skew the figure.

export const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));

/** The JSON body of `res`, or an error naming `what` when it did not answer `status`. */
export const check = async (res, status, what) => {
    if (res.status !== status) {
        throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
    }

    return res.json();
};

/**
 * Uploads `bytes` as a CSV file; its uploadId. On a busy machine a 50 MiB body can pause past
 * BODY_TIMEOUT_SECONDS (answered 408, the socket closed): it is tried again, three times at most.
 */
export const uploadCsv = async (server, auth, bytes, name = 'bench.csv') => {
    for (let attempt = 1; ; attempt++) {
        const form = new FormData();
        form.append('file', new Blob([bytes], { type: 'text/csv' }), name);
        try {
            return (await check(await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: auth }), 201, 'upload')).uploadId;
        } catch (err) {
            if (attempt === 3) {
                throw err;
            }

            console.log(`note: upload attempt ${attempt} failed (${err.cause?.code ?? err.message}); trying again`);
        }
    }
};

export const createWorkflow = async (server, auth, name, graph) =>
    (
        await check(
            await fetch(`${server.url}/api/workflows`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name, graph }) }),
            201,
            'create workflow'
        )
    ).workflowId;

/** Enqueues a run of the workflow; its runId. */
export const enqueue = async (server, auth, workflowId, send = fetch) =>
    (await check(await send(`${server.url}/api/workflows/${workflowId}/run`, { method: 'POST', headers: auth }), 202, 'enqueue')).runId;

export const getRun = async (server, auth, runId, send = fetch) => check(await send(`${server.url}/api/workflows/runs/${runId}`, { headers: auth }), 200, 'get run');

/** Polls the run every `pollMs` until it has ended; the run. */
export const waitRun = async (server, auth, runId, pollMs = 100, send = fetch) => {
    for (;;) {
        const run = await getRun(server, auth, runId, send);
        if (run.completedAt) {
            return run;
        }

        await sleep(pollMs);
    }
};

/**
 * TRIGGER → DATA_SOURCE → (FILTER `filter`, when given) → OUTPUT mailing each row's `email` once.
 */
export const mailGraph = (uploadId, filter = null) => {
    const nodes = [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } }
    ];
    const edges = [{ source: 'start', target: 'people' }];
    if (filter) {
        nodes.push({ id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr: filter } });
        edges.push({ source: 'people', target: 'audience' });
    }

    const from = filter ? 'audience' : 'people';
    nodes.push({
        id: 'send',
        type: 'OUTPUT',
        data: { forEach: filter ? '{{audience.items}}' : '{{people.rows}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'Hi {{item.name}}.' }
    });
    edges.push({ source: from, target: 'send' });
    return { nodes, edges };
};

/** Enqueues a run of a new one-TRIGGER workflow of `auth` and polls until it starts: its wait (ms), at most `giveUpMs`. */
export const waitToStart = async (server, auth, giveUpMs) => {
    const graph = { nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] };
    const runId = await enqueue(server, auth, await createWorkflow(server, auth, 'other', graph));
    const given = performance.now() + giveUpMs;
    for (;;) {
        if (performance.now() > given) {
            return giveUpMs;
        }

        const run = await getRun(server, auth, runId);
        if (run.startedAt) {
            return new Date(run.startedAt).getTime() - new Date(run.enqueuedAt).getTime();
        }

        await sleep(10);
    }
};
