// The SDK from a Node script: upload a CSV, create (or reuse) a workflow, run it and wait for the end.
//   FLOWCTL_API_URL=http://127.0.0.1:3000 FLOWCTL_TOKEN=$(flowctl tokens create --name script) node examples/sdk-script.mjs
// (an access token works too: `flowctl whoami --json` shows who you are; `flowctl login` signs in)
import Path from 'node:path';

import { Flowctl, FlowctlError } from '@flowctl/sdk';

const here = Path.dirname(new URL(import.meta.url).pathname);
// An example script, not a turbo task: its variables are not declared in turbo.json.
const { FLOWCTL_API_URL, FLOWCTL_TOKEN } = process.env;
const client = new Flowctl({ baseUrl: FLOWCTL_API_URL ?? 'http://127.0.0.1:3000', apiToken: FLOWCTL_TOKEN });
const name = 'SDK example: subscribers over 30';

try {
    const upload = await client.uploads.create(Path.join(here, 'contacts.csv'));
    console.log(`uploaded ${upload.filename}: ${upload.rows} rows (${upload.uploadId})`);

    const graph = {
        nodes: [
            { id: 'start', type: 'TRIGGER', data: {} },
            { id: 'contacts', type: 'DATA_SOURCE', data: { uploadId: upload.uploadId } },
            { id: 'audience', type: 'FILTER', data: { source: '{{contacts.rows}}', expr: 'subscribed && age > 30' } },
            { id: 'send', type: 'OUTPUT', data: { forEach: '{{audience.items}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'See you in {{item.city}}!\n\nTo stop these e-mails: {{unsubscribeUrl}}' } }
        ],
        edges: [
            { source: 'start', target: 'contacts' },
            { source: 'contacts', target: 'audience' },
            { source: 'audience', target: 'send' }
        ]
    };

    let workflowId;
    for await (const workflow of client.workflows.list()) {
        if (workflow.name === name) {
            workflowId = workflow.id;
        }
    }

    if (workflowId) {
        await client.workflows.update(workflowId, { graph });
    } else {
        ({ workflowId } = await client.workflows.create({ name, graph }));
    }

    const run = await client.runs.enqueueAndWait(workflowId, { onUpdate: (r) => console.log(`  ${r.status}`), timeoutMs: 10 * 60_000 });
    console.log(`${run.status}: ${JSON.stringify(run.result)}`);
    process.exitCode = run.status === 'SUCCESS' ? 0 : 1;
} catch (err) {
    if (err instanceof FlowctlError) {
        console.error(`flowctl: ${err.message}${err.status ? ` (HTTP ${err.status})` : ''}`);
        process.exitCode = 1;
    } else {
        throw err;
    }
}
