// Finding a workflow by id or by its unique name, with errors that say what to type next.
import type { Flowctl, Workflow } from '@flowctl/sdk';

import type { Ctx } from './context.js';
import { CliError, EXIT, usageError } from './errors.js';
import { flowctlCommand } from './next-command.js';
import { inline } from './visible.js';

export const isNotFound = async (err: unknown): Promise<boolean> => err instanceof (await import('@flowctl/sdk')).NotFoundError;

/** Re-throws a 404 as `message` with `hint`; anything else as is. */
export const orNotFound = async <T>(promise: Promise<T>, message: string, hint: string): Promise<T> => {
    try {
        return await promise;
    } catch (err) {
        if (await isNotFound(err)) {
            throw new CliError(message, EXIT.failed, hint);
        }

        throw err;
    }
};

export const allOf = async <T>(list: AsyncIterable<T>): Promise<T[]> => {
    const items: T[] = [];
    for await (const item of list) {
        items.push(item);
    }

    return items;
};

/** The workflow whose id is `ref`, else the one whose name is exactly `ref`. */
export const findWorkflow = async (ctx: Ctx, api: Flowctl, ref: string): Promise<Workflow> => {
    const idShaped = /^wf_[0-9a-z]+$/.test(ref);
    if (idShaped) {
        try {
            return await api.workflows.retrieve(ref);
        } catch (err) {
            if (!(await isNotFound(err))) {
                throw err;
            }
        }
    }

    const all = await allOf(api.workflows.list());
    const named = all.filter((workflow) => workflow.name === ref);
    if (named.length > 1) {
        throw usageError(`${named.length} workflows are named '${ref}': ${named.map((w) => w.id).join(', ')}`, 'name the one you mean by its id');
    }

    if (named.length === 0 && idShaped) {
        throw new CliError(`no workflow has the id '${ref}'`, EXIT.failed, `see your workflows and their ids: ${flowctlCommand(ctx, 'workflows list')}`);
    }

    if (named.length === 0) {
        // A name must match exactly (a prefix could run or delete the wrong workflow); name the ones
        // that were probably meant, quoted so they can be pasted.
        const needle = ref.trim().toLowerCase();
        const close = needle ? all.filter((workflow) => workflow.name.toLowerCase().includes(needle)) : [];
        throw new CliError(
            `no workflow is named exactly '${ref}' (names match in full, case included)`,
            EXIT.failed,
            close.length > 0 && close.length <= 5
                ? `did you mean ${close.map((w) => `"${inline(w.name)}" (${inline(w.id)})`).join(' or ')}? Pass the whole name or the id`
                : `see your workflows and their ids: ${flowctlCommand(ctx, 'workflows list')}`
        );
    }

    return api.workflows.retrieve(named[0]!.id);
};
