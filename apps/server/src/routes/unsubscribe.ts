import Boom from '@hapi/boom';
import type { ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { MAX_TOKEN_LENGTH } from '../mail/unsubscribe-token.js';
import type { Services } from '../services/index.js';
import { confirmPage, donePage, errorPage } from './unsubscribe-page.js';

// `{PUBLIC_URL}/u/{token}`, the link of every e-mail's List-Unsubscribe header and `{{unsubscribeUrl}}`.
// GET only shows a page (mail scanners and link previews fetch links); POST unsubscribes, from the
// page's button or from a mailbox provider's one-click (RFC 8058): no sign-in, no cookie, no redirect.

/** The RFC 8058 body is 26 bytes; a browser's form post of it is the same. */
const MAX_BODY_BYTES = 1024;

const ONE_CLICK = /(^|&)List-Unsubscribe=One-Click(&|$)/;

/** Whether a POST body is RFC 8058's `List-Unsubscribe=One-Click` (urlencoded or multipart), or empty. */
const isOneClick = (body: Buffer | string | null | undefined): boolean => {
    const text = (body ?? '').toString().trim();
    if (text === '') {
        return true;
    }

    return ONE_CLICK.test(text) || (/name="List-Unsubscribe"/.test(text) && /\r?\n\r?\nOne-Click\r?\n/.test(text));
};

const html = (h: ResponseToolkit, body: string, status = 200): ResponseObject =>
    h
        .response(body)
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");

const NOT_VALID = 'This unsubscribe link is not valid: it may have been changed or cut short. Open the link from the e-mail again.';

/** A 4xx as a page for a person, with the same status a mail provider's server reads. */
const failure = (h: ResponseToolkit, err: unknown): ResponseObject => {
    if (Boom.isBoom(err) && err.output.statusCode < 500) {
        return html(h, errorPage(err.output.statusCode === 404 ? 'Link not valid' : 'Request refused', err.message), err.output.statusCode);
    }

    throw err;
};

const params = Joi.object({ token: Joi.string().required() });
/**
 * Link trackers and mail clients add `?utm_source=…` and the like to the links they pass on: ignored,
 * so the recipient still gets the page (not the API's JSON 400 for an unknown query parameter).
 */
const query = Joi.object().unknown(true);

export const unsubscribeRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/u/{token}',
        options: {
            auth: false,
            tags: ['api', 'consent'],
            description: 'The unsubscribe page of an e-mail: the address (masked), the sender, and one button',
            notes: 'Changes nothing: only the POST unsubscribes. 404 for a link this server did not make (or changed), or whose account is gone.',
            validate: { params, query },
            plugins: { rateLimit: { bucket: 'unsubscribe' }, openapi: { produces: ['text/html'], errors: [404] } }
        },
        handler: async (request, h) => {
            const { token } = request.params as { token: string };
            try {
                if (token.length > MAX_TOKEN_LENGTH) {
                    throw Boom.notFound(NOT_VALID);
                }

                return html(h, confirmPage(await services.suppressions.target(token)));
            } catch (err) {
                return failure(h, err);
            }
        }
    },
    {
        method: 'POST',
        path: '/u/{token}',
        options: {
            auth: false,
            tags: ['api', 'consent'],
            description: "Unsubscribe: adds the e-mail's address to its account's suppression list (RFC 8058 one-click)",
            notes: `Body \`List-Unsubscribe=One-Click\` (any content type) or empty; at most ${MAX_BODY_BYTES} bytes (413). 200 also when the address was already suppressed; 404 for a link this server did not make (or changed), or whose account is gone; 400 for another body.`,
            validate: { params, query },
            payload: {
                parse: false,
                output: 'data',
                maxBytes: MAX_BODY_BYTES,
                failAction: (_request, _h, err) => {
                    throw Boom.isBoom(err) && err.output.statusCode === 413 ? Boom.entityTooLarge(`The body must be 'List-Unsubscribe=One-Click' (RFC 8058) or empty, at most ${MAX_BODY_BYTES} bytes`) : err;
                }
            },
            plugins: { rateLimit: { bucket: 'unsubscribe' }, openapi: { produces: ['text/html'], errors: [400, 404, 413] } }
        },
        handler: async (request, h) => {
            const { token } = request.params as { token: string };
            try {
                if (token.length > MAX_TOKEN_LENGTH) {
                    throw Boom.notFound(NOT_VALID);
                }

                if (!isOneClick(request.payload as Buffer | null)) {
                    throw Boom.badRequest("The body must be 'List-Unsubscribe=One-Click' (RFC 8058) or empty");
                }

                await services.suppressions.unsubscribe(token);
                return html(h, donePage());
            } catch (err) {
                return failure(h, err);
            }
        }
    }
];
