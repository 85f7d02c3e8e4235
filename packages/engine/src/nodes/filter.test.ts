import { describe, expect, it } from 'vitest';
import { executeRun } from '../executor.js';
import { chain, filter, source, trigger } from '../graph/fixtures.test-helpers.js';
import type { Graph, Row } from '../types.js';
import { fakePorts } from './fake-ports.test-helpers.js';

// Enough elements that filtering them takes far longer than one slice on any machine.
const MANY = 3_000_000;
const rows = (): Row[] => new Array(MANY).fill({ a: 1 });
const graph: Graph = { nodes: [trigger(), source(), filter('big', '{{ds.rows}}', 'a > 5')], edges: chain('start', 'ds', 'big') };

describe('FILTER over many elements', () => {
    it('gives way to the event loop while it works, and stops there when the run is cancelled', async () => {
        const controller = new AbortController();
        let filtering = false;
        const outcome = await executeRun(graph, {
            ports: fakePorts({ rows: { 'up-1': rows } }),
            signal: controller.signal,
            hooks: {
                onNodeChange(state) {
                    if (state.nodeId === 'big' && state.status === 'RUNNING') {
                        filtering = true;
                        // Runs only if the filter lets other callbacks in before it is done.
                        setImmediate(() => controller.abort());
                    }
                }
            }
        });

        expect(filtering).toBe(true);
        expect(outcome.status).toBe('CANCELLED');
        const big = outcome.nodes.find((node) => node.nodeId === 'big');
        expect(big?.status).toBe('FAILED');
        expect(big?.error).toMatch(/^run cancelled after filtering \d+ of 3000000 elements$/);
    });

    it('filters every element when left alone', async () => {
        const outcome = await executeRun(graph, { ports: fakePorts({ rows: { 'up-1': rows } }) });
        expect(outcome.status).toBe('SUCCESS');
        expect(outcome.result).toEqual({ totalRows: MANY, filteredOut: MANY, emailsSent: 0 });
    });
});
