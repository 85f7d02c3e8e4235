import type { Queryable } from './db.js';
import { prepared } from './prepared.js';

// Replies a preview paid for, per workflow and request hash (migration 017). A run reads them once
// per AI node and reuses the one whose hash its request has: a preview then a run of N rows costs N calls.

export interface PreviewReplyRecord {
    request_hash: string;
    reply: Record<string, unknown>;
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
}

/** How long a preview's replies wait for a run to use them. */
export const PREVIEW_REPLY_DAYS = 30;

/** The workflow's preview replies by request hash. A preview asks at most 20 per node, so this stays small. */
export const previewReplies = async (db: Queryable, workflowId: string): Promise<Map<string, PreviewReplyRecord>> => {
    const rows = await prepared<PreviewReplyRecord>(
        db,
        'flowctl_ai_preview_replies_read',
        `SELECT request_hash, reply, calls, prompt_tokens, completion_tokens FROM ai_preview_replies
         WHERE workflow_id = $1 AND created_at > now() - make_interval(days => $2)`,
        [workflowId, PREVIEW_REPLY_DAYS]
    );
    return new Map(rows.map((row) => [row.request_hash, row]));
};

/** Records one reply; the same request answered again replaces the older reply. */
export const writePreviewReply = async (db: Queryable, workflowId: string, record: PreviewReplyRecord): Promise<void> => {
    await prepared(
        db,
        'flowctl_ai_preview_replies_write',
        `INSERT INTO ai_preview_replies (workflow_id, request_hash, reply, calls, prompt_tokens, completion_tokens)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6)
         ON CONFLICT (workflow_id, request_hash) DO UPDATE
             SET reply = EXCLUDED.reply, calls = EXCLUDED.calls, prompt_tokens = EXCLUDED.prompt_tokens,
                 completion_tokens = EXCLUDED.completion_tokens, created_at = now()`,
        [workflowId, record.request_hash, JSON.stringify(record.reply), record.calls, record.prompt_tokens, record.completion_tokens]
    );
};
