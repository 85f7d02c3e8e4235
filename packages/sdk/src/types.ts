// Request and response shapes, read from the generated OpenAPI types by path and method so that a change
// on the server shows up here at the next `npm run generate`. The graph is the engine's own type.
import type { NodeType } from '@flowctl/engine';

import type { GraphInput } from './generated/nodes.js';
import type { paths } from './generated/openapi.js';

export type { Edge, GraphNode, NodeDataByType, NodeStatus, NodeType, RunStatus, TerminalRunStatus } from '@flowctl/engine';
export type {
    AiNodeData,
    DataSourceNodeData,
    FilterNodeData,
    GraphInput,
    GraphNodeInput,
    OutputNodeData,
    TriggerNodeData
} from './generated/nodes.js';
export type { components, operations, paths } from './generated/openapi.js';

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

/** The JSON body of the `S` answer of `M P`. */
export type ResponseBody<P extends keyof paths, M extends keyof paths[P], S extends number> =
    Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never) : never;

/** The JSON request body of `M P`. */
export type RequestJson<P extends keyof paths, M extends keyof paths[P]> =
    Operation<P, M> extends { requestBody?: infer B } ? (NonNullable<B> extends { content: { 'application/json': infer J } } ? J : never) : never;

/** A workflow's graph: each node's `type` decides its `data` (generated from the engine's node rules). */
export type Graph = GraphInput;

type WithGraph<T> = Omit<T, 'graph'> & { graph: Graph };

export type TokenPair = ResponseBody<'/api/auth/login', 'post', 200>;
export type RegisterParams = RequestJson<'/api/auth/register', 'post'>;
export type VerifyEmailParams = RequestJson<'/api/auth/verify-email', 'post'>;
/** The tokens of a verified sign-up; `passwordSetupRequired` when the account must set a password (`auth.setPassword()`). */
export type VerifiedTokens = ResponseBody<'/api/auth/verify-email', 'post', 200>;
export type SetPasswordParams = RequestJson<'/api/auth/password', 'post'>;
/** What a password change did to personal API tokens: those of the sessions it signed out are revoked (`revokedApiTokens`); `apiTokens` are the ones still working. */
export type PasswordChange = ResponseBody<'/api/auth/password', 'post', 200>;
export type ResetPasswordParams = RequestJson<'/api/auth/reset-password', 'post'>;
export type LoginParams = RequestJson<'/api/auth/login', 'post'>;
export type Message = ResponseBody<'/api/auth/register', 'post', 201>;
export type Account = ResponseBody<'/api/auth/me', 'get', 200>;

export type Settings = ResponseBody<'/api/account/settings', 'get', 200>;
export type SettingsUpdate = RequestJson<'/api/account/settings', 'put'>;

export type Upload = ResponseBody<'/api/uploads/{uploadId}', 'get', 200>;

/** An address on the suppression list, with why (`unsubscribed`, `bounced`, `complained`, `manual`). */
export type Suppression = ResponseBody<'/api/suppressions', 'get', 200>[number];
export type SuppressionsAdded = ResponseBody<'/api/suppressions', 'post', 200>;

/** A graph sent is checked by type: a node's `type` decides its `data` (GraphInput, from the engine's rules). */
export type WorkflowCreateParams = WithGraph<RequestJson<'/api/workflows', 'post'>>;
export type WorkflowCreated = ResponseBody<'/api/workflows', 'post', 201>;
/** Keys left out keep their value; `paused` pauses or resumes the workflow's schedule and hook. */
export type WorkflowUpdateParams = Partial<WorkflowCreateParams> & { paused?: boolean };
export type Workflow = WithGraph<ResponseBody<'/api/workflows/{workflowId}', 'get', 200>>;
export type WorkflowSummary = WithGraph<ResponseBody<'/api/workflows', 'get', 200>[number]>;
/** A scheduled workflow's schedule as get and list show it: `nextRunAt` (null while paused) and the ticks skipped. */
export type WorkflowSchedule = NonNullable<Workflow['schedule']>;
/** A new hook URL (`workflows.rotateHook()`); the old one answers 404 from then on. */
export type HookRotated = ResponseBody<'/api/workflows/{workflowId}/hook/rotate', 'post', 200>;
export type WorkflowRevisionSummary = ResponseBody<'/api/workflows/{workflowId}/revisions', 'get', 200>[number];
export type WorkflowRevision = WithGraph<ResponseBody<'/api/workflows/{workflowId}/revisions/{revision}', 'get', 200>>;

type PreviewParamsBody = NonNullable<RequestJson<'/api/workflows/{workflowId}/preview', 'post'>>;
/** What to preview: `limit` e-mails per OUTPUT (1–20, default 3), an unsaved `graph`, `sendTestTo: "me"` for a test send. */
export type PreviewParams = Omit<PreviewParamsBody, 'graph'> & { graph?: Graph };
/** What a run would send now, sending nothing: the first e-mails per OUTPUT, every node, and the counts. */
export type Preview = ResponseBody<'/api/workflows/{workflowId}/preview', 'post', 200>;
export type PreviewEmail = Preview['emails'][number];

export type RunEnqueued = ResponseBody<'/api/workflows/{workflowId}/run', 'post', 202>;
type RunDetailBody = ResponseBody<'/api/workflows/runs/{runId}', 'get', 200>;
export type RunNode = Omit<RunDetailBody['nodes'][number], 'type'> & { type: NodeType };
export type Run = Omit<RunDetailBody, 'nodes'> & { nodes: RunNode[] };
export type RunSummary = ResponseBody<'/api/workflows/{workflowId}/runs', 'get', 200>[number];
/** A run in the account's list across workflows (`client.runs.recent()`). */
export type RecentRun = ResponseBody<'/api/runs', 'get', 200>[number];
/** What started a run: `manual`, `schedule` (with `scheduledFor`, its tick), `webhook` or `retry`. */
export type RunTrigger = Run['trigger'];
export type NodeOutputPage = ResponseBody<'/api/workflows/runs/{runId}/nodes/{nodeId}/output', 'get', 200>;
/** One element of an OUTPUT node in a run's delivery ledger: its recipient and what became of it. */
export type Delivery = ResponseBody<'/api/workflows/runs/{runId}/deliveries', 'get', 200>[number];
export type DeliveryStatus = Delivery['status'];

// Routes the server does not describe yet (other work in progress); typed here until they are generated.

/** A personal API token as listed: never the secret. */
export type ApiToken = ResponseBody<'/api/account/tokens', 'get', 200>[number];
/** A new personal API token: `token` (`flc_…`) is shown this once only. */
export type ApiTokenCreated = ResponseBody<'/api/account/tokens', 'post', 201>;
export type ApiTokenCreateParams = RequestJson<'/api/account/tokens', 'post'>;

/** Whether a Google account is linked; `email` only when it is. */
export interface GoogleStatus {
    connected: boolean;
    email?: string;
}
