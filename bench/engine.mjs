// Engine throughput on the built package: FILTER rows/s and rendered OUTPUT messages/s.
// Build first (`npm run build -w @flowctl/engine`), then: node bench/engine.mjs
import { compileFilter, executeRun, validateGraph } from '../packages/engine/dist/index.js';

const ROWS = 1_000_000;
const MESSAGES = 100_000;
const RUNS = 5;
const CITIES = ['Paris', 'Lyon', 'Berlin', 'Madrid', 'Rome'];

function makeRows(n) {
    const rows = new Array(n);
    for (let i = 0; i < n; i++) {
        rows[i] = {
            name: `Person ${i}`,
            age: (i * 7919) % 90,
            city: CITIES[i % CITIES.length],
            active: i % 3 !== 0,
            email: `person${i}@example.com`
        };
    }
    return rows;
}

/** Items per second of the best of RUNS timed runs, after one untimed warm-up run. */
async function bestRate(count, fn) {
    await fn();
    let bestMs = Number.POSITIVE_INFINITY;
    for (let r = 0; r < RUNS; r++) {
        const start = process.hrtime.bigint();
        await fn();
        bestMs = Math.min(bestMs, Number(process.hrtime.bigint() - start) / 1e6);
    }
    return count / (bestMs / 1000);
}

function format(rate) {
    return Math.round(rate).toLocaleString('en-US');
}

async function filterRate(rows, expr) {
    const matches = compileFilter(expr);
    let kept = 0;
    const rate = await bestRate(rows.length, () => {
        kept = 0;
        for (let i = 0; i < rows.length; i++) if (matches(rows[i])) kept++;
    });
    if (kept === 0 || kept === rows.length) throw new Error(`expression selects nothing or everything: ${expr}`);
    return rate;
}

async function outputRate(rows) {
    const graph = {
        nodes: [
            { id: 'start', type: 'TRIGGER', data: {} },
            { id: 'people', type: 'DATA_SOURCE', data: { uploadId: 'bench' } },
            { id: 'team', type: 'AI', data: { prompt: 'Sign the letter', output: [{ name: 'signature', type: 'string' }] } },
            {
                id: 'mail',
                type: 'OUTPUT',
                data: {
                    forEach: '{{people.rows}}',
                    to: '{{ item.email }}',
                    subject: 'Hello {{item.name}} from {{item.city}}',
                    body: 'Dear {{item.name}},\nyou are {{item.age}} and live in {{item.city}}.\n\n{{team.signature}}'
                }
            }
        ],
        edges: [
            { source: 'start', target: 'people' },
            { source: 'people', target: 'team' },
            { source: 'team', target: 'mail' }
        ]
    };
    let sent = 0;
    const ports = {
        loadRows: async () => rows,
        complete: async () => ({ signature: 'The flowctl team' }),
        sendMail: async (message) => {
            if (message.body.length > 0) sent++;
        }
    };
    return bestRate(rows.length, async () => {
        sent = 0;
        const outcome = await executeRun(graph, { ports });
        if (outcome.status !== 'SUCCESS' || sent !== rows.length) throw new Error(`bench run failed: ${outcome.status}`);
    });
}

/** Milliseconds of the fastest of RUNS validations (after a warm-up), checking the expected verdict. */
function validationMs(graph, expectOk) {
    let bestMs = Number.POSITIVE_INFINITY;
    for (let r = 0; r <= RUNS; r++) {
        const start = process.hrtime.bigint();
        const result = validateGraph(graph);
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (result.ok !== expectOk) throw new Error(`unexpected validation verdict: ${JSON.stringify(result).slice(0, 300)}`);
        if (r > 0) bestMs = Math.min(bestMs, ms);
    }
    return bestMs;
}

/** A 10,000-node chain where every node reads an output two or more nodes upstream. */
function chainGraph(n) {
    const nodes = [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'n0', type: 'DATA_SOURCE', data: { uploadId: 'u' } }
    ];
    for (let i = 1; i < n; i++) {
        const source = i % 2 === 1 || i < 3 ? '{{n0.rows}}' : `{{n${i - 2}.items}}`;
        nodes.push({ id: `n${i}`, type: 'FILTER', data: { source, expr: `age > ${i} && city != 'x'` } });
    }
    const edges = [{ source: 'start', target: 'n0' }];
    for (let i = 1; i < n; i++) edges.push({ source: `n${i - 1}`, target: `n${i}` });
    return { nodes, edges };
}

/** About 5 MB of JSON: 20,000 FILTER nodes with distinct expressions, unknown fields and dangling edges. */
function bigBadGraph() {
    const nodes = [{ id: 'start', type: 'TRIGGER', data: {} }];
    const edges = [];
    for (let i = 0; i < 20_000; i++) {
        const expr = `(age > ${i} && city == 'c${i}') || (score <= ${i}.5 && !active) || name != 'n${i}' && x${i} == ${i}`;
        nodes.push({ id: `x${i}`, type: 'FILTER', data: { source: `{{y${i}.items}}`, expr, note: `note ${i}`.padEnd(60, '.') } });
        edges.push({ source: 'start', target: `x${i}` }, { source: `x${i}`, target: `gone${i}` });
    }
    return { nodes, edges };
}

const chain = chainGraph(10_000);
console.log(`validateGraph, 10,000-node chain: ${validationMs(chain, true).toFixed(0)} ms (target < 1,000 ms)`);
const big = bigBadGraph();
const megabytes = (JSON.stringify(big).length / 1e6).toFixed(1);
console.log(`validateGraph, ${megabytes} MB graph with 60,000 problems: ${validationMs(big, false).toFixed(0)} ms (target < 1,000 ms)`);

const rows = makeRows(ROWS);
const simple = await filterRate(rows, 'age > 30');
console.log(`FILTER 'age > 30': ${format(simple)} rows/s (target >= 2,000,000)`);
const compound = await filterRate(rows, "age >= 18 && city == 'Paris' || !active");
console.log(`FILTER "age >= 18 && city == 'Paris' || !active": ${format(compound)} rows/s (target >= 2,000,000)`);
const messages = await outputRate(rows.slice(0, MESSAGES));
console.log(`OUTPUT rendered messages: ${format(messages)} messages/s (target >= 300,000)`);
