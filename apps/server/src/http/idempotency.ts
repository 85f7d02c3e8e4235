import Crypto from 'node:crypto';

import type * as Hapi from '@hapi/hapi';
import Joi from 'joi';

import type { IdempotencyClaim, IdempotencyService } from '../services/idempotency.js';
import { accountIdOf } from './auth.js';

/** `validate.headers` of a route wrapped in idempotent(): declares the key, lets every other header through. */
export const idempotencyHeaders = Joi.object({
    'idempotency-key': Joi.string()
        .min(1)
        .max(255)
        .pattern(/^[\x21-\x7e]+$/)
        .description(
            'Any unique string (e.g. a UUID). A retry with the same key within 24 hours gets the first answer, with Idempotent-Replayed: true, instead of running again.'
        )
        .messages({ 'string.pattern.base': "'idempotency-key' must be printable ASCII without spaces, e.g. a UUID" })
}).unknown();

/** What makes two requests "the same": method, path and body. */
const fingerprint = (request: Hapi.Request): string => {
    const body = Buffer.isBuffer(request.payload) ? request.payload : JSON.stringify(request.payload ?? null);
    return Crypto.createHash('sha256').update(`${request.method} ${request.path}\n`).update(body).digest('base64url');
};

const isResponse = (value: unknown): value is Hapi.ResponseObject =>
    typeof value === 'object' && value !== null && 'statusCode' in value && 'source' in value && typeof (value as { code?: unknown }).code === 'function';

/**
 * Wraps a route handler so a request sent with an `Idempotency-Key` header runs once per account and
 * key: a retry gets the stored first answer, a concurrent one waits for it, another request with
 * the same key is a 422. Only successes are stored; after a failure, a retry runs again. The handler
 * gets the key to write with what it makes where a retry must find it even when this request's answer
 * was lost after its commit (a run, a workflow: services/idempotency.ts insertKeyed).
 */
type Handler = (request: Hapi.Request, h: Hapi.ResponseToolkit, claim: IdempotencyClaim | null) => Promise<Hapi.Lifecycle.ReturnValue>;

export const idempotent =
    (service: IdempotencyService, handler: Handler): Hapi.Lifecycle.Method =>
    async (request, h) => {
        const key = request.headers['idempotency-key'] as string | undefined;
        if (!key) {
            return handler(request, h, null);
        }

        const accountId = accountIdOf(request);
        const claim: IdempotencyClaim = { key, fingerprint: fingerprint(request) };
        const reservation = await service.begin(accountId, key, claim.fingerprint);
        if (reservation.replay) {
            return h.response(reservation.body as object).code(reservation.statusCode).header('idempotent-replayed', 'true');
        }

        let answer: Hapi.Lifecycle.ReturnValue;
        try {
            answer = await handler(request, h, claim);
        } catch (error) {
            await service.abandon(accountId, key);
            throw error;
        }

        const response = isResponse(answer) ? answer : h.response(answer as object);
        if (claim.replayed) {
            response.header('idempotent-replayed', 'true');
        }

        if (response.statusCode >= 200 && response.statusCode < 300) {
            await service.complete(accountId, key, response.statusCode, response.source);
        } else {
            await service.abandon(accountId, key);
        }

        return response;
    };
