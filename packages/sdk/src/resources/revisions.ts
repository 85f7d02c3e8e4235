import type { Flowctl, RequestOptions } from '../client.js';
import type { PagedList } from '../pagination.js';
import type { Workflow, WorkflowRevision, WorkflowRevisionSummary } from '../types.js';
import { ifMatchHeader } from './if-match.js';

export interface RevisionListOptions extends RequestOptions {
    /** Revisions per page (server default 50, at most 500). */
    limit?: number;
}

export interface RevisionRestoreOptions extends RequestOptions {
    /** Restore only while the workflow is at this revision (a number, or its ETag `"r<n>"`); PreconditionFailedError otherwise. */
    ifMatch?: number | string;
}

const revisionsPath = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/revisions`;

/** A workflow's revisions: `client.workflows.revisions`. */
export class WorkflowRevisions {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /** Newest first: revision 1 is the workflow as created, each change of name or graph made the next. */
    list(workflowId: string, options: RevisionListOptions = {}): PagedList<WorkflowRevisionSummary> {
        const { limit, ...rest } = options;
        return this.#client.list<WorkflowRevisionSummary>({ ...rest, method: 'GET', path: revisionsPath(workflowId), query: { limit } });
    }

    /** One revision: the workflow's name and graph then. NotFoundError for one that does not exist or is no longer kept. */
    async get(workflowId: string, revision: number, options?: RequestOptions): Promise<WorkflowRevision> {
        return (await this.#client.request({ ...options, method: 'GET', path: `${revisionsPath(workflowId)}/${revision}` })).body as WorkflowRevision;
    }

    /** Makes the workflow what it was at `revision`, as a new revision (none when it is that already). */
    async restore(workflowId: string, revision: number, options: RevisionRestoreOptions = {}): Promise<Workflow> {
        const { ifMatch, ...rest } = options;
        const res = await this.#client.request({ ...rest, method: 'POST', path: `${revisionsPath(workflowId)}/${revision}/restore`, headers: ifMatchHeader(rest.headers, ifMatch) });
        return res.body as Workflow;
    }
}
