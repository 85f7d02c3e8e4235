// Issue 33 §3: a node's `type` decides its `data` (GraphInput, generated from the engine's node rules).
// A file using the SDK is compiled with tsc: the graphs the engine refuses do not compile, each error
// names the field, and a graph the engine takes compiles without error. The generated file must match
// what the engine checks today.
import Fs from 'node:fs';
import Path from 'node:path';

import { nodeDataSchemas } from '@flowctl/engine';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// @ts-expect-error a plain ES module shared with `npm run generate`, without type declarations
import { nodeTypesSource } from '../scripts/node-types.mjs';

const PACKAGE = Path.resolve(import.meta.dirname, '..');

/** tsc's errors for `source`, a module beside src/, as `line: message` (lines 1-based). */
const compile = (source: string): string[] => {
    const file = Path.join(PACKAGE, `graph-input-${process.pid}.ts`);
    Fs.writeFileSync(file, source);
    try {
        const config = ts.getParsedCommandLineOfConfigFile(Path.join(PACKAGE, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
        const program = ts.createProgram([file], { ...config.options, noEmit: true });
        return ts
            .getPreEmitDiagnostics(program)
            .filter((d) => d.file?.fileName === file)
            .map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    } finally {
        Fs.rmSync(file);
    }
};

const header = `import type { GraphInput, WorkflowCreateParams } from './src/index.js';\nexport const graphs: GraphInput[] = [];\n`;

describe('GraphInput', () => {
    it('is what the engine checks (else: npm run build && npm run generate -w @flowctl/sdk)', () => {
        expect(nodeTypesSource(nodeDataSchemas()) === Fs.readFileSync(Path.join(PACKAGE, 'src/generated/nodes.ts'), 'utf8')).toBe(true);
    });

    it('takes a graph the engine takes', () => {
        const errors = compile(`${header}
const params: WorkflowCreateParams = {
    name: 'fine',
    graph: {
        nodes: [
            { id: 'start', type: 'TRIGGER', data: {} },
            { id: 'people', type: 'DATA_SOURCE', data: { uploadId: 'upl_1' } },
            { id: 'sheet', type: 'DATA_SOURCE', data: { driveFileId: 'f1', sheet: 'Q1' } },
            { id: 'ai', type: 'AI', data: { prompt: 'Hi', output: [{ name: 'line', type: 'string' }], forEach: '{{people.rows}}' } },
            { id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr: 'age > 30' } },
            { id: 'send', type: 'OUTPUT', data: { forEach: '{{audience.items}}', to: '{{item.email}}', subject: 'Hi', body: 'Hello' } }
        ],
        edges: [{ source: 'start', target: 'people' }]
    }
};
graphs.push(params.graph);
`);
        expect(errors).toEqual([]);
    });

    it('refuses OUTPUT data of a FILTER, an empty DATA_SOURCE, both sources, and names a typo', () => {
        const errors = compile(`${header}
graphs.push({ nodes: [{ id: 'send', type: 'OUTPUT', data: { source: '{{a.rows}}', expr: 'x' } }], edges: [] });
graphs.push({ nodes: [{ id: 'people', type: 'DATA_SOURCE', data: {} }], edges: [] });
graphs.push({ nodes: [{ id: 'people', type: 'DATA_SOURCE', data: { uploadId: 'upl_1', driveFileId: 'f1' } }], edges: [] });
graphs.push({ nodes: [{ id: 'audience', type: 'FILTER', data: { source: '{{a.rows}}', exp: 'x' } }], edges: [] });
graphs.push({ nodes: [{ id: 'people', type: 'DATA_SOURCE', data: { uploadId: 'upl_1', sheet: 'Q1' } }], edges: [] });
`);
        const at = (line: number) => errors.filter((e) => e.startsWith(`${line}: `)).join('\n');
        expect(at(4)).toMatch(/'source' does not exist in type 'OutputNodeData'/);
        expect(at(5)).toMatch(/Type '\{\}' is not assignable to type 'DataSourceNodeData'/);
        expect(at(6)).toMatch(/not assignable to type 'DataSourceNodeData'[\s\S]*'driveFileId'/);
        expect(at(7)).toMatch(/'exp' does not exist in type 'FilterNodeData'\. Did you mean to write 'expr'\?/);
        expect(at(8)).toMatch(/not assignable to type 'DataSourceNodeData'[\s\S]*'sheet'/);
        expect([...new Set(errors.map((e) => e.split(':')[0]))]).toEqual(['4', '5', '6', '7', '8']);
    });

    // The empty TRIGGER data was `{}`, which takes any object: these three compiled.
    it('refuses a TRIGGER data typo, a schedule that is no object, a schedule typo; an OUTPUT typo is still named', () => {
        const errors = compile(`${header}
graphs.push({ nodes: [{ id: 'start', type: 'TRIGGER', data: { webhok: true } }], edges: [] });
graphs.push({ nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule: 5 } }], edges: [] });
graphs.push({ nodes: [{ id: 'start', type: 'TRIGGER', data: { schedule: { cronn: '0 9 * * 1-5' } } }], edges: [] });
graphs.push({ nodes: [{ id: 'send', type: 'OUTPUT', data: { forEach: '{{a.rows}}', to: '{{item.email}}', subjet: 'Hi', body: 'Hello' } }], edges: [] });
graphs.push({ nodes: [{ id: 'a', type: 'TRIGGER', data: {} }, { id: 'b', type: 'TRIGGER', data: { webhook: true } }, { id: 'c', type: 'TRIGGER', data: { schedule: { cron: '0 9 * * 1-5', timezone: 'UTC' }, webhook: false } }], edges: [] });
export const kind = (node: GraphInput['nodes'][number]): string => {
    switch (node.type) {
        case 'TRIGGER':
        case 'DATA_SOURCE':
        case 'AI':
        case 'FILTER':
        case 'OUTPUT':
            return node.type;
        default: {
            const none: never = node;
            return none;
        }
    }
};
`);
        const at = (line: number) => errors.filter((e) => e.startsWith(`${line}: `)).join('\n');
        expect(at(4)).toMatch(/'webhok' does not exist in type 'TriggerNodeData'\. Did you mean to write 'webhook'\?/);
        expect(at(5)).toMatch(/not assignable to type 'TriggerNodeData'[\s\S]*'number' is not assignable to type '\{ cron: string/);
        expect(at(6)).toMatch(/'cronn' does not exist in type '\{ cron: string; timezone\?: string \| undefined; \}[^']*'\. Did you mean to write 'cron'\?/);
        expect(at(7)).toMatch(/'subjet' does not exist in type 'OutputNodeData'\. Did you mean to write 'subject'\?/);
        expect([...new Set(errors.map((e) => e.split(':')[0]))]).toEqual(['4', '5', '6', '7']);
    });
});
