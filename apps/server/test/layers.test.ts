// Dependencies point down (issue 33 §5): app.ts assembles the route table, so nothing in src/http/
// imports src/routes/; the row-size rule (run-memory.ts) sits below services and worker alike, so
// services/google.ts reads it without importing the worker.
import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

const SRC = Path.resolve(import.meta.dirname, '..', 'src');
const importsOf = (file: string): string[] => [...Fs.readFileSync(Path.join(SRC, file), 'utf8').matchAll(/^import [^;]*? from '([^']+)';/gms)].map((m) => m[1]!);

describe('layers', () => {
    it('src/http/ imports no route module', () => {
        for (const file of Fs.readdirSync(Path.join(SRC, 'http'))) {
            expect(importsOf(`http/${file}`).filter((spec) => spec.startsWith('../routes/')), `http/${file}`).toEqual([]);
        }
    });

    it('services/google.ts imports nothing from the worker', () => {
        expect(importsOf('services/google.ts').filter((spec) => spec.startsWith('../worker/'))).toEqual([]);
    });
});
