import Crypto from 'node:crypto';

import Joi from 'joi';

// A workflow's ETag is `"r<revision>.<digest>"`: its revision, then a digest of the whole answer. The
// digest is there for If-None-Match: a pause, a webhook or the next scheduled time changes the answer
// but makes no revision, and a cache that revalidated with the revision alone would keep showing the
// old answer (304). If-Match compares the revision only (`"r<n>"` is accepted too): a write answers
// 412 when the name or graph has moved on since (services/workflows.ts checks it in the statement that
// writes), not because the schedule ticked in between.

/** The ETag (unquoted, as hapi's `response.etag` takes it) of a workflow answer at `revision`. */
export const workflowTag = (revision: number, answer: object): string =>
    `r${revision}.${Crypto.createHash('sha256').update(JSON.stringify(answer)).digest('base64url').slice(0, 12)}`;

/**
 * `validate.headers` of a write that takes If-Match: one entity tag, or `*`. Anything else is not an
 * entity tag and answers 400; a tag that is not a revision of ours (W/"r3", "abc") never matches (412).
 */
export const ifMatchHeaders = Joi.object({
    'if-match': Joi.string()
        .trim()
        .max(100)
        .pattern(/^(?:\*|(?:W\/)?"[\x21\x23-\x7e]*")$/)
        .description('The ETag of the workflow as you read it ("r<revision>.<digest>", or "r<revision>"): 412 when its name or graph has changed since, and nothing is written')
        .messages({
            'string.pattern.base': 'If-Match must be one entity tag in double quotes, as the ETag header of GET /api/workflows/{workflowId} gives it (e.g. "r3"), or *'
        })
}).unknown();

/**
 * The revision If-Match asks for: undefined when there is no condition (absent, or `*`); 0, which no
 * revision has, for a tag that is not one of ours.
 */
export const ifMatchRevision = (header: string | undefined): number | undefined => {
    const value = header?.trim();
    if (value === undefined || value === '*') {
        return undefined;
    }

    const revision = /^"r([1-9][0-9]{0,8})(?:\.[A-Za-z0-9_-]{1,64})?"$/.exec(value)?.[1];
    return revision === undefined ? 0 : Number(revision);
};
