import { Parser } from 'csv-parse';
import { typeCsvRow, executeRun } from '@flowctl/engine';
import { realistic } from './lib/realistic.mjs';
const buf = realistic();
const opts = { bom: true, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: false, skip_empty_lines: true, skip_records_with_empty_values: true, max_record_size: 1024 * 1024 };
const time = async (label, fn) => { const t = performance.now(); const r = await fn(); console.log(label, (performance.now() - t).toFixed(0), 'ms'); return r; };
const parse = (o) => new Promise((resolve, reject) => { const p = new Parser(o); const recs = []; p.on('data', (r) => recs.push(r)); p.on('end', () => resolve(recs)); p.on('error', reject); for (let i = 0; i < buf.length; i += 16384) p.write(buf.subarray(i, i + 16384)); p.end(); });
const recs = await time('csv-parse (our options)', () => parse(opts));
await time('csv-parse (defaults)', () => parse({}));
await time('csv-parse (no skip_records_with_empty_values)', () => parse({ ...opts, skip_records_with_empty_values: false }));
await time('csv-parse (single delimiter)', () => parse({ ...opts, record_delimiter: '\n' }));
const header = recs[0];
const rows = await time('typeCsvRow', () => recs.slice(1).map((r) => typeCsvRow(header, r)));
const graph = { nodes: [
  { id: 'start', type: 'TRIGGER', data: {} },
  { id: 'people', type: 'DATA_SOURCE', data: { uploadId: 'u' } },
  { id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr: "age > 40 || city == 'Paris'" } },
  { id: 'send', type: 'OUTPUT', data: { forEach: '{{audience.items}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'See you in {{item.city}}.' } }
], edges: [{ source: 'start', target: 'people' }, { source: 'people', target: 'audience' }, { source: 'audience', target: 'send' }] };
const times = {};
let last = performance.now();
const ports = { async loadRows() { return rows; }, async complete() { throw new Error('x'); }, async sendMail(m, k) { if (k.index < 3) {} }, mailConcurrency: 1 };
await time('executeRun (preview-like ports)', () => executeRun(graph, { ports, hooks: { onNodeChange(s) { const now = performance.now(); if (s.status !== 'RUNNING') times[s.nodeId] = (now - last).toFixed(0); last = now; } } }));
console.log(times);
