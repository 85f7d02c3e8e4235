// The README's resource table names every public method of every resource of the client, so a reader
// of the registry page learns of workflows.preview or runs.recent. The resources are walked on a client
// (methods of each resource's class, nested resources by their property), not listed by hand.
import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { Flowctl } from '../src/index.js';

const README = Fs.readFileSync(Path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8');

/** Each row of the table: `path` → the text of its methods cell. */
const rows = new Map([...README.matchAll(/^\| `([a-z.]+)` \| (.*) \|$/gm)].map((m) => [m[1]!, m[2]!]));

/** `path` → its methods, for every resource object reachable from the client. */
const resources = (object: object, path: string, found = new Map<string, string[]>()): Map<string, string[]> => {
    const proto = Object.getPrototypeOf(object) as object;
    const methods = Object.getOwnPropertyNames(proto).filter((name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function');
    if (path) {
        found.set(path, methods);
    }

    for (const [name, value] of Object.entries(object)) {
        // The session is internal (and documented as such); the rest are resources.
        if (name !== 'session' && value && typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype && !(value instanceof URL)) {
            resources(value as object, path ? `${path}.${name}` : name, found);
        }
    }

    return found;
};

describe('README resource table', () => {
    it('names every public method of every resource', async () => {
        const client = new Flowctl({ baseUrl: 'http://127.0.0.1:9' });
        const missing: string[] = [];
        for (const [path, methods] of resources(client, '')) {
            const row = rows.get(path);
            // A resource holding only resources (account, integrations) needs no row of its own.
            if (methods.length === 0) {
                continue;
            }

            for (const method of methods) {
                if (!row || !new RegExp(`\`${method}[\`(]`).test(row)) {
                    missing.push(`${path}.${method}`);
                }
            }
        }

        await client.close();
        expect(missing).toEqual([]);
    });
});
