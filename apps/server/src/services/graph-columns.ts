// The columns check of a workflow graph (issue 28): every `{{item.x}}` and FILTER name against the
// header of the uploads that reach it, with the engine's checkColumns(). Uploads the account does
// not have are reported elsewhere (as not found), so their columns are simply unknown here.

import { checkColumns, type ColumnProblem } from '@flowctl/engine';

import { shownFilename } from './upload-filename.js';

export type UploadHeaders = ReadonlyMap<string, { filename: string; columns: string[] }>;

export const columnProblems = (graph: unknown, headers: UploadHeaders): ColumnProblem[] =>
    checkColumns(graph, (node) => {
        const header = node.data.uploadId === undefined ? undefined : headers.get(node.data.uploadId);
        return header ? { columns: header.columns, label: `upload ${shownFilename(header.filename)}` } : null;
    });

/** A mistake as it survives an edit: its node, the data field and the name (not the node's index, which moves). */
const mistake = (problem: ColumnProblem): string => `${problem.nodeId}\u0000${problem.path.slice(problem.path.lastIndexOf('.') + 1)}\u0000${problem.field}`;

/**
 * The column problems of `graph` that `previous` (the stored graph a PATCH replaces) did not have.
 * A PATCH refuses new mistakes only: a workflow saved before this check with a misspelt name stays
 * editable (an urgent fix elsewhere is never blocked), and its elements fail at run time until the
 * name is fixed, rather than being sent with a blank.
 */
export const newColumnProblems = (graph: unknown, previous: unknown, headers: UploadHeaders): ColumnProblem[] => {
    const known = new Set(columnProblems(previous, headers).map(mistake));
    return columnProblems(graph, headers).filter((problem) => !known.has(mistake(problem)));
};
