import Fs from 'node:fs';
import Path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// @ts-expect-error a plain ES module shared with `npm run generate`, without type declarations
import { openApiToTypeScript } from '../scripts/openapi-types.mjs';
import { startTestServer, type TestServer } from './server.js';

const committed = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), '../src/generated/openapi.ts');

describe('generated API types', () => {
    let t: TestServer;

    beforeAll(async () => {
        t = await startTestServer();
    });

    afterAll(() => t?.close());

    it('match what the running server describes (else: npm run build && npm run generate -w @flowctl/sdk)', async () => {
        const res = await fetch(`${t.url}/openapi.json`);
        expect(res.status).toBe(200);
        const fresh: string = await openApiToTypeScript(await res.json());
        expect(fresh === Fs.readFileSync(committed, 'utf8'), 'src/generated/openapi.ts is out of date: run `npm run build && npm run generate -w @flowctl/sdk`').toBe(true);
    });
});
