import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

// Language-model replies recorded per element of a run's AI node (migration 011). Written whoever
// holds the lease: a reply is a fact that was paid for, and the key makes a second write harmless.

export interface AiReplyRecord {
    node_id: string;
    element_index: number;
    request_hash: string;
    reply: Record<string, unknown>;
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
}

/** The replies recorded for one node of a run, by element index. */
export const recordedAiReplies = async (db: Queryable, runId: string, nodeId: string): Promise<Map<number, AiReplyRecord>> => {
    const rows = await prepared<AiReplyRecord>(
        db,
        'flowctl_ai_replies_read',
        `SELECT node_id, element_index, request_hash, reply, calls, prompt_tokens, completion_tokens
         FROM ai_replies WHERE run_id = $1 AND node_id = $2`,
        [runId, nodeId]
    );
    return new Map(rows.map((row) => [row.element_index, row]));
};

/** Records replies in one round trip; a newer reply for the same element replaces the older. */
export const writeAiReplies = async (db: Queryable, runId: string, replies: AiReplyRecord[]): Promise<void> => {
    await prepared(
        db,
        'flowctl_ai_replies_write',
        `INSERT INTO ai_replies (run_id, node_id, element_index, request_hash, reply, calls, prompt_tokens, completion_tokens)
         SELECT $1, r.node_id, r.element_index, r.request_hash, r.reply::jsonb, r.calls, r.prompt_tokens, r.completion_tokens
         FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[])
             AS r(node_id, element_index, request_hash, reply, calls, prompt_tokens, completion_tokens)
         ON CONFLICT (run_id, node_id, element_index) DO UPDATE
             SET request_hash = EXCLUDED.request_hash, reply = EXCLUDED.reply, calls = EXCLUDED.calls,
                 prompt_tokens = EXCLUDED.prompt_tokens, completion_tokens = EXCLUDED.completion_tokens`,
        [
            runId,
            replies.map((r) => r.node_id),
            replies.map((r) => r.element_index),
            replies.map((r) => r.request_hash),
            replies.map((r) => JSON.stringify(r.reply)),
            replies.map((r) => r.calls),
            replies.map((r) => r.prompt_tokens),
            replies.map((r) => r.completion_tokens)
        ]
    );
};
