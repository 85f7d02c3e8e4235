// Graph problems found with the server's help, shown at their line and column in the YAML: names an
// upload (by uploadId) does not have, checked before anything is sent, and the details of a 400.
import type { ColumnSource } from '@flowctl/engine';
import type { ErrorDetail, Flowctl } from '@flowctl/sdk';

import { cliWording } from './cli-wording.js';
import { columnMistakes, fileHeader, namePattern } from './columns.js';
import { EXIT } from './errors.js';
import { isNotFound } from './resolve.js';
import { inline, message } from './visible.js';
import { type FileProblem, fileProblems, LOCAL_FILE_PREFIX, type WorkflowFile } from './workflow-file.js';

/**
 * Names the uploads that DATA_SOURCE `uploadId`s name do not have, asked of the server (reads only)
 * before any file is uploaded or workflow written; throws every mistake of every file at its line.
 */
export const checkUploadColumns = async (api: Flowctl, workflows: WorkflowFile[]): Promise<void> => {
    const problems: FileProblem[] = [];
    const uploads = new Map<string, ColumnSource | null>();
    for (const workflow of workflows) {
        const headers = new Map<string, ColumnSource>();
        for (const node of workflow.graph.nodes) {
            const uploadId = node.type === 'DATA_SOURCE' ? (node.data as { uploadId?: string }).uploadId : undefined;
            if (!uploadId || uploadId.startsWith(LOCAL_FILE_PREFIX)) continue;
            if (!uploads.has(uploadId)) uploads.set(uploadId, await uploadColumns(api, uploadId));
            const known = uploads.get(uploadId);
            if (known) headers.set(node.id, known);
        }

        if (headers.size === 0) continue;
        for (const source of workflow.sources) {
            const columns = fileHeader(source.path);
            if (columns) headers.set(source.nodeId, { columns, label: source.file });
        }

        for (const mistake of await columnMistakes(workflow.graph, headers)) {
            problems.push(workflow.locate(`graph.${mistake.path}`, mistake.message, namePattern(mistake.path, mistake.field)));
        }
    }

    if (problems.length > 0) {
        throw fileProblems(problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col));
    }
};

/** An upload's header; null when the server does not have it (it says so when the workflow is sent). */
const uploadColumns = async (api: Flowctl, uploadId: string): Promise<ColumnSource | null> => {
    try {
        const upload = await api.uploads.retrieve(uploadId);
        return { columns: upload.columns, label: `upload ${inline(upload.filename)}` };
    } catch (err) {
        if (await isNotFound(err)) return null;
        throw err;
    }
};

/** The name a server's column message is about, to point at it: `{{item.nmae}} in …` or `'nmae' in the filter …`. */
const namedIn = (message: string): string | null => /^\{\{item\.(.+?)\}\} in '/.exec(message)?.[1] ?? /^'(.+?)' in the filter of node /.exec(message)?.[1] ?? null;

/**
 * A 400 about the graph of `workflow` (each detail has a `graph.…` path), as its problems at their
 * lines and columns in the YAML; any other error as it is.
 */
export const inWorkflowFile = async (workflow: WorkflowFile, err: unknown): Promise<unknown> => {
    const { BadRequestError } = await import('@flowctl/sdk');
    const details = err instanceof BadRequestError && Array.isArray(err.details) ? (err.details as ErrorDetail[]) : [];
    const located = details.filter((detail) => typeof detail.path === 'string' && detail.path.startsWith('graph'));
    if (located.length === 0) return err;
    const problems = located.map((detail) => {
        const path = detail.path as string;
        const name = namedIn(detail.message);
        return workflow.locate(path, message(cliWording(detail.message)), name === null ? undefined : namePattern(path, name));
    });
    // A refused request, as before these were shown at their lines: exit 1.
    return fileProblems(problems, 'the server refused the lines above: fix them and run the command again', EXIT.failed);
};
