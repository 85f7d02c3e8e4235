import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import type { Context } from '../context.js';
import { accountIdOf } from '../http/auth.js';
import { HOOK_STRATEGY, hookOwnerOf } from '../http/hook-auth.js';
import { idempotencyHeaders, idempotent } from '../http/idempotency.js';
import { explainPayloadErrors, formatBytes } from '../http/payload.js';
import type { Services } from '../services/index.js';

const started = Joi.object({ runId: Joi.string().required(), status: Joi.string().valid('PENDING').required() });
const rotated = Joi.object({ hookUrl: Joi.string().required().description('The new URL; the old one answers 404 from now on') });

export const hookRoutes = (ctx: Context, services: Services): ServerRoute[] => {
    // A hook body is taken whole in memory (JSON needs two readings of it): bounded by MAX_HOOK_BYTES.
    const limit = Math.min(ctx.config.maxHookBytes, ctx.config.maxUploadBytes);
    return [
        {
            method: 'POST',
            path: '/api/hooks/{hookId}',
            options: {
                auth: { strategy: HOOK_STRATEGY },
                tags: ['api', 'hooks'],
                description: "Start a run of a workflow with rows: its TRIGGER outputs them as {{<trigger id>.rows}} and .count",
                notes: [
                    'No sign-in: the hook URL is the secret (shown when the hook is made, and by POST /api/workflows/{workflowId}/hook/rotate).',
                    `The body: a JSON array of objects, {"rows": [...]}, or a CSV file (Content-Type: text/csv) checked as uploads are; at most ${formatBytes(limit)} (MAX_HOOK_BYTES). Values are typed as CSV cells are. Every row posted is a row: one whose values are all empty or null, a key that is empty, a NUL character or a lone surrogate is a 400 naming the row. No body: no rows.`,
                    `Requests to one hook are limited to ${ctx.config.rateLimit.perHook} per ${ctx.config.rateLimit.windowSeconds} s (RATE_LIMIT_PER_HOOK), apart from the account's own budget.`,
                    'An unknown or rotated hook answers 404; a paused workflow 409. Send an Idempotency-Key so that a retry starts one run.'
                ],
                payload: {
                    output: 'data',
                    parse: false,
                    allow: ['application/json', 'text/csv'],
                    maxBytes: limit,
                    failAction: explainPayloadErrors({
                        tooLarge: () => `The body is larger than the hook limit of ${formatBytes(limit)} (the server's MAX_HOOK_BYTES): send fewer rows per request, or upload the file (POST /api/uploads) and run a workflow that reads it.`,
                        wrongType: (received) => `Send the rows as JSON (Content-Type: application/json) or as CSV (Content-Type: text/csv), got ${received}.`
                    })
                },
                validate: { params: Joi.object({ hookId: Joi.string().max(100).required() }), headers: idempotencyHeaders },
                response: { status: { 202: started } },
                plugins: { openapi: { status: 202, errors: [404, 409, 413, 415, 422] } }
            },
            handler: idempotent(services.idempotency, async (request, h, claim) => {
                const type = String(request.headers['content-type'] ?? 'application/json').toLowerCase();
                const bytes = (request.payload as Buffer | null) ?? Buffer.alloc(0);
                const contentType = bytes.length === 0 ? 'none' : type.startsWith('text/csv') ? 'csv' : 'json';
                return h.response(await services.hooks.start(hookOwnerOf(request), { contentType, bytes }, claim)).code(202);
            })
        },
        {
            method: 'POST',
            path: '/api/workflows/{workflowId}/hook/rotate',
            options: {
                tags: ['api', 'workflows'],
                description: "Replace a workflow's hook URL",
                notes: 'The old URL answers 404 at once, in every process. 409 when the TRIGGER has no webhook: true.',
                plugins: { owner: { kind: 'workflow', param: 'workflowId' }, openapi: { errors: [409] } },
                validate: { params: Joi.object({ workflowId: Joi.string().max(200).required() }) },
                response: { status: { 200: rotated } }
            },
            handler: async (request) => ({ hookUrl: await services.schedules.rotateHook(accountIdOf(request), (request.params as { workflowId: string }).workflowId) })
        }
    ];
};
