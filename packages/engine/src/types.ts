// The engine's public data model. The server persists these shapes and the SDK mirrors them,
// so a change here is a change to the API.

export const NODE_TYPES = ['TRIGGER', 'DATA_SOURCE', 'AI', 'FILTER', 'OUTPUT'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export interface DataSourceData {
    uploadId?: string;
    /** Google Drive file id, read through the server's Google port instead of an upload. */
    driveFileId?: string;
    /** With a Google Sheet as `driveFileId`: the sheet to read by name (else the first). */
    sheet?: string;
}

export interface AiOutputField {
    name: string;
    type: 'string' | 'array';
}

export interface AiData {
    prompt: string;
    output: AiOutputField[];
    model?: string;
    system?: string;
    /** Template resolving to an array: one model call per element, `{{item.*}}` usable in the prompt. */
    forEach?: string;
}

export interface FilterData {
    source: string;
    expr: string;
}

export interface OutputData {
    forEach: string;
    to: string;
    subject: string;
    body: string;
    /** An HTML part: the e-mail is then multipart/alternative with `body` as its text part. Values are HTML-escaped. */
    html?: string;
}

/** When a TRIGGER starts runs by itself: `cron` of 5 fields, or 6 with seconds first, in `timezone` (IANA, default UTC). */
export interface Schedule {
    cron: string;
    timezone?: string;
}

// A type, not an interface: graphs are read as records of unknown values, which an interface is not.
export type TriggerData = {
    schedule?: Schedule;
    /** Runs can also be started by POST /api/hooks/{hookId}; the TRIGGER then outputs `rows` and `count`. */
    webhook?: boolean;
};

export interface NodeDataByType {
    TRIGGER: TriggerData;
    DATA_SOURCE: DataSourceData;
    AI: AiData;
    FILTER: FilterData;
    OUTPUT: OutputData;
}

export interface GraphNode<T extends NodeType = NodeType> {
    id: string;
    type: T;
    data: NodeDataByType[T];
}

export interface Edge {
    source: string;
    target: string;
}

export interface Graph {
    nodes: GraphNode[];
    edges: Edge[];
}

/** One problem found by validateGraph(). `path` is a JSON path into the graph, e.g. `nodes[2].data.expr`. */
export interface GraphProblem {
    nodeId: string | null;
    path: string;
    message: string;
}

export type NodeStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'SKIPPED';
export type RunStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'CANCELLED';
export type TerminalRunStatus = 'SUCCESS' | 'FAILED' | 'CANCELLED';

/** A typed CSV cell: see typeCsvValue(). */
export type CellValue = string | number | boolean | null;
export type Row = Record<string, CellValue>;

/**
 * What a node produced. DATA_SOURCE `{rows, count}`, FILTER `{items, count}`, AI one key per declared output,
 * OUTPUT `{emailsSent}` (and `unknownOutcome`, see RunResult), TRIGGER `{}`.
 */
export type NodeOutput = Record<string, unknown>;

export interface NodeState {
    nodeId: string;
    type: NodeType;
    status: NodeStatus;
    error: string | null;
    startedAt: Date | null;
    completedAt: Date | null;
    output: NodeOutput | null;
}

export interface RunResult {
    totalRows: number;
    filteredOut: number;
    emailsSent: number;
    /**
     * Present when some e-mails' outcome is unknown (see Ports.sendMail): they may have arrived, so they
     * are counted neither as sent nor as failed.
     */
    unknownOutcome?: number;
    /** Present when some elements were not sent because their address is on the suppression list (not failures). */
    suppressed?: number;
    /** Present once an AI node ran: model calls made for the run, and the tokens their replies reported. */
    aiCalls?: number;
    aiPromptTokens?: number;
    aiCompletionTokens?: number;
}

export interface MailMessage {
    to: string;
    subject: string;
    body: string;
    /** The HTML part, when the OUTPUT node has `html`. */
    html?: string;
    /** What `{{unsubscribeUrl}}` rendered for this e-mail (the port's unsubscribeUrl), for its List-Unsubscribe header. */
    unsubscribeUrl?: string;
}

/** An element of an OUTPUT node as the suppression list is asked about it. */
export interface SuppressionCandidate {
    index: number;
    /** The recipient, trimmed and lower-cased (suppressionKey()). */
    address: string;
}

/** Identifies one delivery so the caller can make sending idempotent across retries and crashes. */
export interface DeliveryKey {
    nodeId: string;
    index: number;
    /** How many elements the node's `forEach` has (for progress and the delivery ledger); absent in a retry's resend. */
    elements?: number;
}

export interface AiRequest {
    nodeId: string;
    /** Element index when the node has `forEach`, else null. */
    index: number | null;
    model?: string;
    system?: string;
    prompt: string;
    output: AiOutputField[];
    /** JSON schema for structured output, built by buildOutputSchema(). */
    schema: Record<string, unknown>;
    /** With `forEach`: how many elements the node has (for progress). */
    elements?: number;
    /** Asking again: the previous reply's text and what was wrong with it, added to the conversation. */
    correction?: { reply: string; problem: string };
}

/** Tokens a reply cost, as the endpoint reported them (`usage`). */
export interface AiUsage {
    promptTokens: number;
    completionTokens: number;
}

/** What `complete` returns: the reply, how it read, and what it cost. */
export interface AiAnswer {
    /** The reply parsed from JSON; undefined when it was not JSON (`notJson` then says why). */
    reply: unknown;
    /** The reply's text, so that asking again can show the model what it said. */
    text: string;
    notJson?: string;
    /** Absent when the endpoint reported none; for a recorded reply, what the earlier attempt paid. */
    usage?: AiUsage;
    /** Model calls the reply took (default 1); for a recorded reply, what the earlier attempt made. */
    calls?: number;
    /** True when this is a reply recorded by an earlier attempt for the same request: no call was made. */
    recorded?: boolean;
    /**
     * True when the port declined to ask the model now (a preview asks only for the elements the
     * e-mails it shows need): nothing was paid, `reply` is ignored, the element's declared fields are
     * `null`, and the node counts it in its `aiNotAsked` output.
     */
    deferred?: boolean;
}

export interface PortContext {
    nodeId: string;
    signal: AbortSignal;
}

/** Everything with side effects reaches the engine through these. The server implements them. */
export interface Ports {
    loadRows(data: DataSourceData, ctx: PortContext): Promise<Row[]>;
    /** The rows the run was started with (POSTed to its workflow's hook); none for a run started otherwise. */
    triggerRows?(ctx: PortContext): Promise<Row[]>;
    /**
     * Asks the model (or returns the reply recorded for this request by an earlier attempt); the engine
     * validates the reply against the schema. Aborting `ctx.signal` must abort a call under way.
     */
    complete(request: AiRequest, ctx: PortContext): Promise<AiAnswer>;
    /**
     * Records an element's validated reply, so that a resumed run does not pay for it again. The node
     * starts its next call once this settles, so a crash can repeat at most the calls in flight.
     */
    recordReply?(request: AiRequest, reply: Record<string, unknown>, usage: AiUsage & { calls: number }): Promise<void> | void;
    /** How many `complete` calls a per-row AI node may have in flight at once (default 1). */
    aiConcurrency?: number;
    /**
     * Resolves once the transport accepted the message (or had already accepted it for this key).
     * Resolves `false` when the element was delivered by another run (the one a retry retries): it is
     * not sent and not counted in this run's `emailsSent`. Resolves `'unknown'` when the element's
     * outcome is unknown and stays so: a copy of it went out and its answer was never read (before a
     * crash, say), and no later copy was accepted (the server refused it, or it was not sent as it
     * could arrive twice). The node counts it as `unknownOutcome`, not as a failure: it may have arrived.
     */
    // biome-ignore lint/suspicious/noConfusingVoidType: a port that delivered resolves with nothing, as before
    sendMail(message: MailMessage, key: DeliveryKey, ctx: PortContext): Promise<void | false | 'unknown'>;
    /** How many sendMail calls an OUTPUT node may have in flight at once (default 1: one after another). */
    mailConcurrency?: number;
    /**
     * Which of these elements of an OUTPUT node must not be mailed: their indexes. Each comes with its
     * address as suppressionKey() writes it. The node asks once per chunk of `suppressionChunk`
     * elements, right before it sends them, so an address suppressed during a run stops the e-mails to
     * it that have not yet gone. A suppressed element is neither sent nor a failure: it is counted as
     * `suppressed`. (A port leaves out of the answer an element an earlier attempt already sent.)
     */
    suppressed?(nodeId: string, elements: SuppressionCandidate[], ctx: PortContext): Promise<ReadonlySet<number>>;
    /** Elements per suppressed() call (default 500). */
    suppressionChunk?: number;
    /** Told of each element left out as suppressed (a preview lists them). */
    onSuppressed?(message: MailMessage, key: DeliveryKey): void;
    /** The unsubscribe link of an e-mail to `to` (what `{{unsubscribeUrl}}` renders); without it, ''. */
    unsubscribeUrl?(to: string): string;
    /**
     * An element that failed before reaching the transport (a bad recipient address, a field the
     * element lacks): `to` is the rendered address when there is one. Lets the port record who was
     * not mailed and why; sendMail is not called for it.
     */
    mailFailed?(key: DeliveryKey, failure: { to: string | null; reason: string }): Promise<void> | void;
}

export interface ExecuteHooks {
    /** Called on every node transition, in order, before the executor moves on. Awaited. */
    onNodeChange?(state: NodeState): Promise<void> | void;
}

export interface ExecuteOptions {
    ports: Ports;
    hooks?: ExecuteHooks;
    /** Aborting cancels the run at the next element boundary. */
    signal?: AbortSignal;
    now?: () => Date;
    /**
     * States of a run that was interrupted (e.g. its worker crashed). Nodes already SUCCESS keep their
     * state and output and are not executed again; every other node runs (OUTPUT relies on idempotent
     * sendMail keys so nothing is delivered twice).
     */
    resume?: NodeState[];
}

export interface RunOutcome {
    status: TerminalRunStatus;
    nodes: NodeState[];
    result: RunResult;
    /** Set only when the run could not start because its graph is invalid; node failures are on the nodes. */
    error?: string;
}
