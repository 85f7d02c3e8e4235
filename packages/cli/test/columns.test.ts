// Issue 28: a name no CSV column has is reported at its line and column in the YAML, before anything
// is sent: against a `file:`'s header read here, and an `uploadId`'s asked of the server.
import Fs from 'node:fs';
import Path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLES, flowctl, freshHome, type Server, signUp, startServer, workflowDir } from './harness.js';

const typos = (source: string) => `name: Typos
graph:
  nodes:
    - { id: start, type: TRIGGER, data: {} }
    - { id: contacts, type: DATA_SOURCE, data: { ${source} } }
    - { id: subs, type: FILTER, data: { source: "{{contacts.rows}}", expr: "age > 30 && subscribd == true" } }
    - id: send
      type: OUTPUT
      data:
        forEach: "{{subs.items}}"
        to: "{{item.email}}"
        subject: "Hi {{item.nmae}}"
        body: |
          Hello {{ item.name }},
          see you in {{item.cty}}.
  edges:
    - { source: start, target: contacts }
    - { source: contacts, target: subs }
    - { source: subs, target: send }
`;

const expected = (label: string) => [
    `typos.yaml:6:89: 'subscribd' in the filter of node 'subs': no such column in ${label}; did you mean 'subscribed'?`,
    `typos.yaml:12:22: {{item.nmae}} in 'subject' of node 'send': no such column in ${label}; did you mean 'name'?`,
    `typos.yaml:15:22: {{item.cty}} in 'body' of node 'send': no such column in ${label}; did you mean 'city'?`
];

describe('column names in a workflow file', () => {
    it("are checked against a file:'s header before anything is sent, each at its line and column", async () => {
        const dir = workflowDir({ 'typos.yaml': typos('file: ./contacts.csv') });
        // No server answers at port 9: the file is refused before any request.
        const result = await flowctl(['apply', '-f', Path.join(dir, 'typos.yaml'), '--api-url', 'http://127.0.0.1:9'], { home: freshHome(), cwd: dir });
        expect(result.code, result.stderr).toBe(2);
        const lines = result.stderr.split('\n').filter((line) => line.startsWith('typos.yaml:'));
        expect(lines).toEqual(expected('./contacts.csv'));
        expect(result.stderr).toContain('nothing was sent to the server');

        const json = await flowctl(['--json', 'workflows', 'create', '-f', Path.join(dir, 'typos.yaml'), '--api-url', 'http://127.0.0.1:9'], { home: freshHome(), cwd: dir });
        expect(json.code).toBe(2);
        expect(json.json.error.problems[1]).toEqual({ file: 'typos.yaml', line: 12, col: 22, message: expect.stringContaining("did you mean 'name'?") });
    });

    describe('with a server', () => {
        let server: Server;
        let home: string;
        beforeAll(async () => {
            server = await startServer();
            home = freshHome();
            await signUp(server, home);
        });
        afterAll(() => server?.close());

        const cli = (args: string[], cwd: string) => flowctl(['--json', ...args, '--api-url', server.url], { home, cwd });

        it("are checked against an uploadId's header before any file is uploaded or workflow written", async () => {
            const upload = await cli(['upload', Path.join(EXAMPLES, 'contacts.csv')], EXAMPLES);
            expect(upload.code, upload.stderr).toBe(0);
            const uploadsBefore = (await cli(['uploads', 'list'], EXAMPLES)).json.length;

            // A second source, a local file, that must not be uploaded while the first is wrong.
            const dir = workflowDir({ 'typos.yaml': typos(`uploadId: ${upload.json.uploadId}`), 'staff.csv': Fs.readFileSync(Path.join(EXAMPLES, 'staff.csv'), 'utf8') });
            const file = Path.join(dir, 'typos.yaml');
            Fs.writeFileSync(
                file,
                Fs.readFileSync(file, 'utf8')
                    .replace('    - { id: subs,', '    - { id: staff, type: DATA_SOURCE, data: { file: ./staff.csv } }\n    - { id: subs,')
                    .replace('    - { source: contacts, target: subs }', '    - { source: contacts, target: subs }\n    - { source: start, target: staff }')
            );
            const result = await flowctl(['apply', '-f', file, '--api-url', server.url], { home, cwd: dir });
            expect(result.code, result.stderr).toBe(2);
            const lines = result.stderr.split('\n').filter((line) => line.startsWith('typos.yaml:'));
            // The staff node moved every later line down by one.
            expect(lines).toEqual(expected('upload contacts.csv').map((line) => line.replace(/^typos\.yaml:(\d+)/, (_, n) => `typos.yaml:${Number(n) + 1}`)));

            expect((await cli(['uploads', 'list'], dir)).json).toHaveLength(uploadsBefore);
            expect((await cli(['workflows', 'list'], dir)).json).toEqual([]);
        });

        it("shows the server's graph problems at their line and column", async () => {
            const dir = workflowDir({ 'typos.yaml': typos('uploadId: upl_nothere').replace('subscribd', 'subscribed').replace('nmae', 'name').replace('cty', 'city') });
            const result = await flowctl(['apply', '-f', Path.join(dir, 'typos.yaml'), '--api-url', server.url], { home, cwd: dir });
            expect(result.code, result.stderr).toBe(1);
            expect(result.stderr).toMatch(/^typos\.yaml:5:60: upload 'upl_nothere' not found: upload the CSV first \(`flowctl upload <file\.csv>`\)/m);
            expect(result.stderr).toContain('the server refused the lines above');
        });
    });
});
