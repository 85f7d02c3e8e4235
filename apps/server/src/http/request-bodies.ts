import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';
import { formatBytes } from './payload.js';

// hapi reads a failed body to its end before answering (its payload step drains the request), so a
// client that declares 50 MiB, or stops sending, would wait for an answer that never comes. Here
// those requests are answered at once, and their connection closed.

const CLOSE = Symbol('close the connection');

/**
 * Throws the 413, worded by the route's own failAction when it has one (see payload.ts). A failAction
 * may throw, return a rejected promise (an async one, as ownership.ts wraps every owned route's) or
 * return: each ends in a thrown error here. Throwing the promise itself made hapi answer 500 and left
 * its rejection unhandled, which ended the process.
 */
const refuseTooLarge = async (request: Hapi.Request, h: Hapi.ResponseToolkit, limit: number): Promise<never> => {
    const failAction = request.route.settings.payload?.failAction;
    const err = Boom.entityTooLarge(`The request body is larger than ${formatBytes(limit)}`);
    if (typeof failAction === 'function') {
        await failAction.call(null, request, h, err);
    }

    throw err;
};

/**
 * Fails the request's body stream when no byte of it arrived for `idleMs` (our own back-pressure
 * aside), or when the whole request has not arrived `deadlineMs` after it began: a byte every few
 * seconds would otherwise hold the connection for as long as the body is long.
 */
const watchBody = (request: Hapi.Request, idleMs: number, deadlineMs: number): void => {
    const req = request.raw.req;
    const socket = req.socket;
    let lastBytes = socket.bytesRead;
    let idleSince = Date.now();
    const fail = (message: string) => {
        stop();
        (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
        // Whoever reads the body (hapi's parser, a streaming handler) fails with this, and hapi answers it.
        req.emit('error', Boom.clientTimeout(message));
    };
    const timer = setInterval(
        () => {
            if (Date.now() - request.info.received >= deadlineMs) {
                fail(`The request took longer than ${Math.round(deadlineMs / 1000)} s to arrive (the server's REQUEST_TIMEOUT_SECONDS): send it faster, or a smaller body.`);
                return;
            }

            const waitingOnUs = req.readableLength >= req.readableHighWaterMark;
            if (socket.bytesRead !== lastBytes || waitingOnUs) {
                lastBytes = socket.bytesRead;
                idleSince = Date.now();
                return;
            }

            if (Date.now() - idleSince >= idleMs) {
                fail(`The request body stopped arriving: no byte came for ${Math.round(idleMs / 1000)} s. Send the whole body without pauses.`);
            }
        },
        Math.min(1000, Math.max(50, Math.min(idleMs, deadlineMs) / 4))
    );
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    request.raw.res.once('close', stop);
};

/**
 * hapi reads a body it parses itself, or hands over whole, with @hapi/wreck, which destroys the request once the body passes
 * the route's maxBytes. Destroying the request destroys its socket: a client still sending a chunked
 * body got a reset instead of the 413 (a declared Content-Length is refused before reading, below).
 * Here that destroy (wreck calls it with no error, on a live socket) stops the reading instead: an
 * error event tells hapi the body is done (it answers the route's 413 at once), and the connection
 * closes lingering after the answer (connections.ts). Any other destroy is a destroy.
 */
const stopReadingInsteadOfDestroy = (request: Hapi.Request): void => {
    const req = request.raw.req;
    const destroy = req.destroy;
    req.destroy = function (this: typeof req, error?: Error) {
        if (error !== undefined || this.socket.destroyed || request.raw.res.headersSent) {
            return destroy.call(this, error);
        }

        (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
        const limit = request.route.settings.payload?.maxBytes;
        this.emit('error', Boom.entityTooLarge(limit ? `The request body is larger than ${formatBytes(limit)}` : 'The request body is larger than this route takes'));
        return this;
    };
};

/**
 * The route a request will reach, or null. hapi's router throws on a path whose percent-encoding does
 * not decode (`/api/workflows/%ff`): that is the client's mistake, answered 400 before any body is read.
 */
const routeOf = (server: Hapi.Server, request: Hapi.Request): Hapi.RequestRoute | null => {
    try {
        return server.match(request.method, request.path);
    } catch {
        (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
        throw Boom.badRequest('The request path is not valid percent-encoding (a % must be followed by two hex digits of UTF-8).');
    }
};

export const registerRequestBodies = (server: Hapi.Server, options: { bodyTimeoutSeconds: number; requestTimeoutSeconds: number }): void => {
    server.ext('onRequest', (request, h) => {
        const req = request.raw.req;
        if (!req.headers['content-length'] && !req.headers['transfer-encoding']) {
            return h.continue;
        }

        // hapi's not-found route drains the whole body before its 404 (and no onPreAuth runs for it):
        // a path or method no route has is answered before any of the body is read.
        const route = request.path.startsWith('/') ? routeOf(server, request) : null;
        if (request.path.startsWith('/') && route === null) {
            (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
            throw Boom.notFound();
        }

        // hapi reads with wreck a body it parses, and one it hands over whole (output 'data', parse false).
        const payload = route?.settings.payload;
        if (req.headers['transfer-encoding'] && (payload?.parse === true || payload?.output === 'data')) {
            stopReadingInsteadOfDestroy(request);
        }

        watchBody(request, options.bodyTimeoutSeconds * 1000, options.requestTimeoutSeconds * 1000);
        return h.continue;
    });

    // Before auth and before hapi starts reading: a declared length over the limit needs no body.
    server.ext('onPreAuth', async (request, h) => {
        const limit = request.route.settings.payload?.maxBytes;
        const declared = Number(request.headers['content-length']);
        if (limit !== undefined && declared > limit && request.method !== 'get' && request.method !== 'head') {
            (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
            await refuseTooLarge(request, h, limit);
        }

        return h.continue;
    });

    // After parsing, before joi or the engine walk the body recursively. A body left unparsed (a
    // hook's, a Buffer) is not walked: Object.values of a 45 MB Buffer made an array of 45 million
    // numbers, seconds during which no request was answered.
    server.ext('onPostAuth', (request, h) => {
        const parsed = !Buffer.isBuffer(request.payload) && typeof (request.payload as { pipe?: unknown } | null)?.pipe !== 'function';
        if (parsed && /^application\/(?:.+\+)?json$/.test(request.mime ?? '') && nestedDeeperThan(request.payload, MAX_JSON_DEPTH)) {
            throw Boom.badRequest(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels: flatten it.`);
        }

        return h.continue;
    });

    // A body left unread (too large, too slow) must not keep the connection: the next request would start mid-body.
    server.ext('onPreResponse', (request, h) => {
        const response = request.response;
        if ((request.plugins as Record<symbol, boolean>)[CLOSE] || (Boom.isBoom(response) && (response.output.statusCode === 413 || response.output.statusCode === 408))) {
            if (Boom.isBoom(response)) {
                response.output.headers.connection = 'close';
            } else {
                response.header('connection', 'close');
            }
        }

        return h.continue;
    });
};
