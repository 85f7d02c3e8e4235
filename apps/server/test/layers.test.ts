// Dependencies point down (issue 33 §5): app.ts assembles the route table, so nothing in src/http/
// imports src/routes/; the row-size rule (run-memory.ts) sits below services and worker alike, so
// services/google.ts reads it without importing the worker. From the top: app.ts, main.ts and
// index.ts assemble the server; a request enters at routes/ (helped by http/) and a run executes in
// worker/; both use services/, which use ai/, mail/, google/ and queue/, which use store/. The files at the
// top of src/ (config, ids, secrets, outbound, run-memory...) sit below everything.
import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

const SRC = Path.resolve(import.meta.dirname, '..', 'src');
/** Layers, highest first; a file may import its own layer or a lower one. */
const RANK: Record<string, number> = { routes: 5, http: 4, worker: 4, services: 3, ai: 2, mail: 2, google: 2, queue: 2, store: 1 };
const COMPOSITION = new Set(['app.ts', 'main.ts', 'index.ts']);
const rankOf = (file: string): number | undefined => {
    const [first, ...rest] = file.split('/');
    if (rest.length === 0) {
        return COMPOSITION.has(first!) ? 6 : 0;
    }

    return RANK[first!];
};
const sources = (dir: string): string[] =>
    Fs.readdirSync(Path.join(SRC, dir), { withFileTypes: true }).flatMap((entry) => {
        const file = dir === '' ? entry.name : `${dir}/${entry.name}`;
        return entry.isDirectory() ? sources(file) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
    });

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

    it('every import in src/ points to its own layer or a lower one', () => {
        const upward: string[] = [];
        for (const file of sources('')) {
            const rank = rankOf(file);
            expect(rank, `${file}: a folder with no layer in RANK`).toBeDefined();
            const text = Fs.readFileSync(Path.join(SRC, file), 'utf8');
            for (const [, typeOnly, spec] of text.matchAll(/^(?:import|export)( type)? [^;]*? from '(\.[^']+)';/gms)) {
                const target = Path.relative(SRC, Path.resolve(SRC, Path.dirname(file), spec!.replace(/\.js$/, '.ts')));
                if (target.startsWith('..')) {
                    continue;
                }

                // The context only names the types of what app.ts builds and hands to every layer.
                if (file === 'context.ts' && typeOnly) {
                    continue;
                }

                if ((rankOf(target) ?? 0) > rank!) {
                    upward.push(`${file} -> ${target}`);
                }
            }
        }

        expect(upward).toEqual([]);
    });
});
