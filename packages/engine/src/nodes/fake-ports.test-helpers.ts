// In-memory Ports for executor tests: the engine is pure and ports are its boundary, so plain
// objects recording calls are the honest way to drive it.
import type { AiAnswer, AiRequest, DataSourceData, DeliveryKey, ExecuteHooks, MailMessage, NodeState, PortContext, Ports, Row } from '../types.js';

export interface FakePorts extends Ports {
    loads: DataSourceData[];
    requests: AiRequest[];
    sent: Array<{ message: MailMessage; key: DeliveryKey }>;
    signals: AbortSignal[];
}

export interface FakeOptions {
    rows?: Record<string, Row[] | (() => unknown)>;
    /** The model's reply (as parsed JSON), or a promise of it; wrapped as an answer with usage 3 + 2 tokens. */
    reply?: (request: AiRequest) => unknown;
    /** Instead of `reply`: the whole answer. */
    answer?: (request: AiRequest, ctx: PortContext) => AiAnswer | Promise<AiAnswer>;
    aiConcurrency?: number;
    /** Called before a message is accepted; throw to reject it. */
    beforeSend?: (message: MailMessage, key: DeliveryKey, ctx: PortContext) => void | Promise<void>;
}

export function fakePorts(options: FakeOptions = {}): FakePorts {
    const ports: FakePorts = {
        loads: [],
        requests: [],
        sent: [],
        signals: [],
        async loadRows(data, ctx) {
            ports.loads.push(data);
            ports.signals.push(ctx.signal);
            const source = options.rows?.[data.uploadId ?? data.driveFileId ?? ''];
            if (source === undefined) throw new Error(`upload '${data.uploadId}' not found`);
            return (typeof source === 'function' ? source() : source) as Row[];
        },
        async complete(request, ctx) {
            ports.requests.push(request);
            if (options.answer !== undefined) return options.answer(request, ctx);
            if (options.reply === undefined) throw new Error('no language model configured');
            const reply = await options.reply(request);
            return { reply, text: JSON.stringify(reply) ?? '', usage: { promptTokens: 3, completionTokens: 2 } };
        },
        ...(options.aiConcurrency === undefined ? {} : { aiConcurrency: options.aiConcurrency }),
        async sendMail(message, key, ctx) {
            await options.beforeSend?.(message, key, ctx);
            ports.sent.push({ message, key });
        }
    };
    return ports;
}

/** Records every hook call, with a clock that ticks one second per call to now(). */
export function recorder() {
    const changes: NodeState[] = [];
    let tick = 0;
    const hooks: ExecuteHooks = {
        onNodeChange(state) {
            changes.push(state);
        }
    };
    const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
    const transitions = () => changes.map((s) => `${s.nodeId}:${s.status}`);
    return { changes, hooks, now, at, transitions };
}

export const people: Row[] = [
    { name: 'Ann', age: 34, email: 'ann@example.com', city: 'Paris' },
    { name: 'Bob', age: 17, email: 'bob@example.com', city: 'Lyon' },
    { name: 'Cy', age: 52, email: 'cy@example.com', city: 'Paris' }
];
