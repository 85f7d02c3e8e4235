// `apply`: make the server's workflows match YAML files, matched by name. Unchanged files (same
// graph, same CSV bytes) send nothing but reads; `--dry-run` reports the plan and sends no write.
import Path from 'node:path';

import type { Flowctl, Graph, Workflow } from '@flowctl/sdk';

import type { Ctx } from './context.js';
import { usageError } from './errors.js';
import { checkUploadColumns, inWorkflowFile } from './graph-problems.js';
import { allOf } from './resolve.js';
import { type PlacedFile, placeFile } from './uploads.js';
import type { WorkflowFile } from './workflow-file.js';
import { inline } from './visible.js';

export type Action = 'created' | 'updated' | 'unchanged' | 'would create' | 'would update';

export interface Applied {
    file: string;
    name: string;
    workflowId: string | null;
    action: Action;
    /** What differs from the server's copy, as paths (`graph.nodes[3].data.subject`). */
    changes: string[];
    uploads: (PlacedFile & { nodeId: string })[];
    /** A hook URL made by this apply (`webhook: true` in the TRIGGER): shown only now. */
    hookUrl?: string;
}

/** Paths where `a` and `b` differ, depth first; whole values where the shapes differ. */
export const differences = (a: unknown, b: unknown, path = ''): string[] => {
    if (Object.is(a, b)) {
        return [];
    }

    const bothArrays = Array.isArray(a) && Array.isArray(b);
    const bothObjects = !bothArrays && a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
    if (bothArrays) {
        const length = Math.max(a.length, b.length);
        return Array.from({ length }, (_, i) => differences(a[i], b[i], `${path}[${i}]`)).flat();
    }

    if (bothObjects) {
        const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
        return keys.flatMap((key) => differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key));
    }

    return [path || '(whole value)'];
};

/** Fills each `file:` DATA_SOURCE with the uploadId its bytes have on the server (uploading them if need be; not with dryRun). */
export const placeSources = async (ctx: Ctx, api: Flowctl, workflow: WorkflowFile, dryRun: boolean) => {
    const graph = structuredClone(workflow.graph) as Graph;
    const uploads: Applied['uploads'] = [];
    for (const source of workflow.sources) {
        const placed = await placeFile(ctx, api, source.path, dryRun);
        uploads.push({ ...placed, path: Path.relative(process.cwd(), placed.path) || placed.path, nodeId: source.nodeId });
        const node = graph.nodes.find((candidate) => candidate.id === source.nodeId && candidate.type === 'DATA_SOURCE');
        if (node && placed.uploadId) {
            (node.data as { uploadId?: string }).uploadId = placed.uploadId;
        }
    }

    return { graph, uploads };
};

export const applyWorkflows = async (ctx: Ctx, api: Flowctl, workflows: WorkflowFile[], dryRun: boolean): Promise<Applied[]> => {
    const files = new Map<string, string>();
    for (const workflow of workflows) {
        const other = files.get(workflow.name);
        if (other) {
            throw usageError(`${other} and ${workflow.file} both define the workflow '${inline(workflow.name)}'`, 'give each workflow its own name');
        }

        files.set(workflow.name, workflow.file);
    }

    const byName = new Map<string, string[]>();
    for (const summary of await allOf(api.workflows.list())) {
        byName.set(summary.name, [...(byName.get(summary.name) ?? []), summary.id]);
    }

    for (const workflow of workflows) {
        const ids = byName.get(workflow.name) ?? [];
        if (ids.length > 1) {
            throw usageError(`the server has ${ids.length} workflows named '${inline(workflow.name)}' (${inline(ids.join(', '))}), so apply cannot tell which to update`, `remove the extra ones: flowctl workflows rm ${ids.slice(1).join(' ')}`);
        }
    }

    // Before any upload or write: a name an upload does not have is reported at its line.
    await checkUploadColumns(api, workflows);
    const results: Applied[] = [];
    for (const workflow of workflows) {
        const { graph, uploads } = await placeSources(ctx, api, workflow, dryRun);
        const webhookUrl = workflow.webhookUrl ?? null;
        const id = byName.get(workflow.name)?.[0];
        const base = { file: workflow.file, name: workflow.name, uploads };
        if (!id) {
            const created = dryRun
                ? null
                : await api.workflows.create({ name: workflow.name, graph, ...(webhookUrl ? { webhookUrl } : {}) }).catch(async (err: unknown) => {
                      throw await inWorkflowFile(workflow, err);
                  });
            results.push({
                ...base,
                workflowId: created?.workflowId ?? null,
                action: dryRun ? 'would create' : 'created',
                changes: [],
                ...(created?.hookUrl ? { hookUrl: created.hookUrl } : {})
            });
            continue;
        }

        const current: Workflow = await api.workflows.retrieve(id);
        const changes = [
            ...differences(current.graph, graph, 'graph'),
            ...((current.webhookUrl ?? null) === webhookUrl ? [] : ['webhookUrl'])
        ];
        if (changes.length === 0) {
            results.push({ ...base, workflowId: id, action: 'unchanged', changes });
            continue;
        }

        const updated = dryRun
            ? null
            : await api.workflows.update(id, { graph, webhookUrl }).catch(async (err: unknown) => {
                  throw await inWorkflowFile(workflow, err);
              });

        results.push({ ...base, workflowId: id, action: dryRun ? 'would update' : 'updated', changes, ...(updated?.hookUrl ? { hookUrl: updated.hookUrl } : {}) });
    }

    return results;
};
