import type { AiData, DataSourceData, Graph } from '@flowctl/engine';
// Below services and worker alike: a preview, a Google Drive read and a run all size rows by this rule.

// A run's memory, estimated before it loads anything. Rows are held as one object per row (shared by
// every node that passes them on), so a run costs about: per row an object and its cells, the text
// of its strings, and per node that holds an array one reference per element. The figures were
// measured on Node 24 (an object of 1–4 small cells ≈ 66 bytes with its array slot, 10 cells ≈ 130)
// and rounded up, so that a run within the budget stays within it.

/** An object and its slot in the rows array. */
const ROW_BYTES = 64;
/** A property slot and, for a string or a decimal, its header. */
const CELL_BYTES = 32;
/** Characters of the CSV as JavaScript strings (two-byte when not Latin-1). */
const TEXT_FACTOR = 2;
/** A FILTER holds one reference per element it keeps. */
const REFERENCE_BYTES = 8;

export interface UploadSize {
    rows: number;
    columns: number;
    bytes: number;
}

export interface RunEstimate {
    bytes: number;
    rows: number;
    /** The largest upload read, for the message. */
    largest: (UploadSize & { uploadId: string }) | null;
    sources: number;
    filters: number;
    aiForEach: number;
}

const MB = 1024 * 1024;

/** Estimated bytes of rows of this shape as the engine holds them. */
export const rowsBytes = (size: UploadSize): number => size.rows * (ROW_BYTES + CELL_BYTES * size.columns) + TEXT_FACTOR * size.bytes;

/** Estimated bytes of rows being loaded, from what has streamed in so far: lines, cells (commas and lines) and bytes. */
export const loadingBytes = (lines: number, cells: number, bytes: number): number => lines * ROW_BYTES + cells * CELL_BYTES + TEXT_FACTOR * bytes;

/** The run's memory from its graph and the sizes of the uploads it reads (unknown uploads count nothing). */
export const estimateRun = (graph: Graph, sizeOf: (uploadId: string) => UploadSize | null): RunEstimate => {
    const nodes = Array.isArray(graph?.nodes) ? graph.nodes : [];
    let bytes = 0;
    let rows = 0;
    let largest: RunEstimate['largest'] = null;
    let sources = 0;
    let columns = 0;
    for (const node of nodes) {
        const uploadId = node.type === 'DATA_SOURCE' ? (node.data as DataSourceData).uploadId : undefined;
        const size = uploadId ? sizeOf(uploadId) : null;
        if (!uploadId || !size) {
            continue;
        }

        sources += 1;
        bytes += rowsBytes(size);
        rows += size.rows;
        columns = Math.max(columns, size.columns);
        if (!largest || size.bytes > largest.bytes) {
            largest = { ...size, uploadId };
        }
    }

    const filters = nodes.filter((node) => node.type === 'FILTER').length;
    // An AI node with forEach makes a new object per element: the row's cells and its declared fields.
    const aiNodes = nodes.filter((node) => node.type === 'AI' && (node.data as AiData).forEach);
    bytes += filters * rows * REFERENCE_BYTES;
    for (const node of aiNodes) {
        const fields = Array.isArray((node.data as AiData).output) ? (node.data as AiData).output.length : 0;
        bytes += rows * (ROW_BYTES + CELL_BYTES * (columns + fields));
    }

    return { bytes, rows, largest, sources, filters, aiForEach: aiNodes.length };
};

const n = (value: number): string => value.toLocaleString('en-US');
const mb = (bytes: number): string => `${n(Math.ceil(bytes / MB))} MB`;

/** Why a run over RUN_MEMORY_MB does not start: how big its data is and what to change. */
export const overBudgetMessage = (estimate: RunEstimate, budgetBytes: number): string => {
    const { largest } = estimate;
    const data = largest
        ? `upload '${largest.uploadId}' has ${n(largest.rows)} rows × ${n(largest.columns)} column${largest.columns === 1 ? '' : 's'} (${mb(largest.bytes)} of CSV)`
        : `its uploads have ${n(estimate.rows)} rows`;
    const readers = [
        `${estimate.sources} DATA_SOURCE`,
        ...(estimate.filters > 0 ? [`${estimate.filters} FILTER`] : []),
        ...(estimate.aiForEach > 0 ? [`${estimate.aiForEach} AI with forEach`] : [])
    ].join(', ');
    const more = estimate.sources > 1 ? `; ${n(estimate.rows)} rows in all from ${estimate.sources} uploads` : '';
    return (
        `the run would need about ${mb(estimate.bytes)} of memory, more than RUN_MEMORY_MB (${mb(budgetBytes)}): ${data}${more}, ` +
        `held by ${readers} node${estimate.sources + estimate.filters + estimate.aiForEach === 1 ? '' : 's'}. ` +
        'Split the file into smaller uploads, have fewer nodes read its rows, or raise RUN_MEMORY_MB.'
    );
};
