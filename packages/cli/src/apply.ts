// `apply`: make the server's workflows match YAML files, matched by name. Unchanged files (same
// graph, same CSV bytes) send nothing but reads; `--dry-run` reports the plan and sends no write.
import Path from 'node:path';

import type { Flowctl, Graph, Workflow, WorkflowSummary } from '@flowctl/sdk';

import type { Ctx } from './context.js';
import { CliError, EXIT, usageError } from './errors.js';
import { checkUploadColumns, inWorkflowFile } from './graph-problems.js';
import { flowctlCommand, shellWord } from './next-command.js';
import { allOf } from './resolve.js';
import { sendable } from './sendable.js';
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

export interface Planned {
    workflow: WorkflowFile;
    /** The file's graph, its `file:` sources placed (with dryRun, those not uploaded yet keep `file:…`). */
    graph: Graph;
    webhookUrl: string | null;
    uploads: Applied['uploads'];
    /** The server's workflow of that name, as read for the comparison; null when there is none. */
    current: Workflow | null;
    /** What differs from `current`, as paths; empty when there is no `current`. */
    changes: string[];
}

/**
 * Several workflows of one name (`workflows create` always makes a new one): apply updates none of them.
 * The hint keeps the oldest, the one apply has been updating: it has the run history, the revisions and
 * the hook URL callers use, while a duplicate was just made from the file and has nothing of its own yet.
 * The server lists newest first, so the oldest is the last of the list.
 */
const duplicateNames = (ctx: Ctx, name: string, named: WorkflowSummary[]): CliError => {
    const oldestFirst = [...named].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const [kept, ...extra] = oldestFirst as [WorkflowSummary, ...WorkflowSummary[]];
    const rm = extra.map((w) => flowctlCommand(ctx, `workflows rm ${w.id} --yes`)).join(' && ');
    return usageError(
        `the server has ${named.length} workflows named '${inline(name)}' (${inline(oldestFirst.map((w) => `${w.id} created ${w.createdAt}`).join(', '))}), so apply cannot tell which to update`,
        `keep the first made, ${inline(kept.id)} (its runs, revisions and hook URL stay), and remove the newer ${extra.length === 1 ? 'one' : 'ones'} with all their runs: ${rm}`
    );
};

/** Each file next to the server's workflow of its name, and what apply would change: shared by apply and diff. */
export const planWorkflows = async (ctx: Ctx, api: Flowctl, workflows: WorkflowFile[], dryRun: boolean): Promise<Planned[]> => {
    const files = new Map<string, string>();
    for (const workflow of workflows) {
        const other = files.get(workflow.name);
        if (other) {
            throw usageError(`${other} and ${workflow.file} both define the workflow '${inline(workflow.name)}'`, 'give each workflow its own name');
        }

        files.set(workflow.name, workflow.file);
    }

    const byName = new Map<string, WorkflowSummary[]>();
    for (const summary of await allOf(api.workflows.list())) {
        byName.set(summary.name, [...(byName.get(summary.name) ?? []), summary]);
    }

    for (const workflow of workflows) {
        const named = byName.get(workflow.name) ?? [];
        if (named.length > 1) {
            throw duplicateNames(ctx, workflow.name, named);
        }
    }

    // Before any upload or write: a name an upload does not have is reported at its line.
    await checkUploadColumns(api, workflows);
    const plans: Planned[] = [];
    for (const workflow of workflows) {
        const { graph, uploads } = await placeSources(ctx, api, workflow, dryRun);
        const webhookUrl = workflow.webhookUrl ?? null;
        const id = byName.get(workflow.name)?.[0]?.id;
        const current = id ? await api.workflows.retrieve(id) : null;
        const changes = current
            ? [...differences(current.graph, graph, 'graph'), ...((current.webhookUrl ?? null) === webhookUrl ? [] : ['webhookUrl'])]
            : [];
        plans.push({ workflow, graph, webhookUrl, uploads, current, changes });
    }

    return plans;
};

/**
 * The workflow changed on the server between apply's read and its write (412): which revisions came
 * since, what each changed, and how to look before applying again.
 */
const changedMeanwhile = async (ctx: Ctx, api: Flowctl, plan: Planned, current: Workflow, err: unknown): Promise<CliError> => {
    const { PreconditionFailedError } = await import('@flowctl/sdk');
    if (!(err instanceof PreconditionFailedError)) {
        throw await inWorkflowFile(plan.workflow, err);
    }

    const { describeChange } = await import('./revision-changes.js');
    const lines: string[] = [];
    let after: { name: string; graph: Graph; revision: number; createdAt: string } | null = null;
    for await (const entry of api.workflows.revisions.list(current.id, { limit: 10 })) {
        const revision = await api.workflows.revisions.get(current.id, entry.revision).catch(() => null);
        if (after && revision) {
            lines.unshift(`  revision ${after.revision} at ${after.createdAt}: ${describeChange(revision, after)}`);
        }

        if (!revision || entry.revision <= current.revision) {
            break;
        }

        after = revision;
    }

    const now = err.revision ?? after?.revision;
    return new CliError(
        [
            `'${inline(current.name)}' (${current.id}) changed on the server while apply compared it with ${plan.workflow.file}: it is at revision ${now ?? 'a newer one'}, and apply had read revision ${current.revision}, so nothing was written for it (another apply, a rollback or an edit came first)`,
            ...lines
        ].join('\n'),
        EXIT.failed,
        `see what apply would change now: ${flowctlCommand(ctx, `diff -f ${shellWord(plan.workflow.file)}`)}, then apply again`
    );
};

export const applyWorkflows = async (ctx: Ctx, api: Flowctl, workflows: WorkflowFile[], dryRun: boolean): Promise<Applied[]> => {
    const results: Applied[] = [];
    for (const plan of await planWorkflows(ctx, api, workflows, dryRun)) {
        const { workflow, graph, webhookUrl, current, changes } = plan;
        const base = { file: workflow.file, name: workflow.name, uploads: plan.uploads };
        if (!current) {
            const created = dryRun
                ? null
                : await api.workflows.create({ name: workflow.name, graph: sendable(graph), ...(webhookUrl ? { webhookUrl } : {}) }).catch(async (err: unknown) => {
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

        if (changes.length === 0) {
            results.push({ ...base, workflowId: current.id, action: 'unchanged', changes });
            continue;
        }

        // Only over the revision compared above: a change made meanwhile is not overwritten unseen.
        const updated = dryRun
            ? null
            : await api.workflows.update(current.id, { graph: sendable(graph), webhookUrl }, { ifMatch: current.revision }).catch(async (err: unknown) => {
                  throw await changedMeanwhile(ctx, api, plan, current, err);
              });

        results.push({ ...base, workflowId: current.id, action: dryRun ? 'would update' : 'updated', changes, ...(updated?.hookUrl ? { hookUrl: updated.hookUrl } : {}) });
    }

    return results;
};
