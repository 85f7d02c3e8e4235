import Joi from 'joi';

// A workflow's ETag is its revision, `"r<n>"`. If-Match carries the one a client read: a write
// answers 412 when the workflow has moved on since (services/workflows.ts checks it in the statement
// that writes).

/** The workflow's ETag at `revision`. */
export const revisionTag = (revision: number): string => `"r${revision}"`;

/**
 * `validate.headers` of a write that takes If-Match: one entity tag, or `*`. Anything else is not an
 * entity tag and answers 400; a tag that is not a revision of ours (W/"r3", "abc") never matches (412).
 */
export const ifMatchHeaders = Joi.object({
    'if-match': Joi.string()
        .trim()
        .max(100)
        .pattern(/^(?:\*|(?:W\/)?"[\x21\x23-\x7e]*")$/)
        .description('The ETag of the workflow as you read it ("r<revision>"): 412 when it has changed since, and nothing is written')
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

    const revision = /^"r([1-9][0-9]{0,8})"$/.exec(value)?.[1];
    return revision === undefined ? 0 : Number(revision);
};
