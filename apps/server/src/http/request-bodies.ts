import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';
import { formatBytes } from './payload.js';

// hapi reads a failed body to its end before answering (its payload step drains the request), so a
// client that declares 50 MiB, or stops sending, would wait for an answer that never comes. Here
// those requests are answered at once, and their connection closed.

const CLOSE = Symbol('close the connection');

/** The route's own failAction words the 413 when it has one (see payload.ts). */
const tooLarge = (request: Hapi.Request, h: Hapi.ResponseToolkit, limit: number) => {
    const failAction = request.route.settings.payload?.failAction;
    const err = Boom.entityTooLarge(`The request body is larger than ${formatBytes(limit)}`);
    return typeof failAction === 'function' ? failAction.call(null, request, h, err) : err;
};

/** Fails the request's body stream when no byte of it arrived for `timeoutMs` (our own back-pressure aside). */
const watchBody = (request: Hapi.Request, timeoutMs: number): void => {
    const req = request.raw.req;
    const socket = req.socket;
    let lastBytes = socket.bytesRead;
    let idleSince = Date.now();
    const timer = setInterval(
        () => {
            const waitingOnUs = req.readableLength >= req.readableHighWaterMark;
            if (socket.bytesRead !== lastBytes || waitingOnUs) {
                lastBytes = socket.bytesRead;
                idleSince = Date.now();
                return;
            }

            if (Date.now() - idleSince >= timeoutMs) {
                stop();
                (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
                const seconds = Math.round(timeoutMs / 1000);
                // Whoever reads the body (hapi's parser, a streaming handler) fails with this, and hapi answers it.
                req.emit('error', Boom.clientTimeout(`The request body stopped arriving: no byte came for ${seconds} s. Send the whole body without pauses.`));
            }
        },
        Math.min(1000, Math.max(50, timeoutMs / 4))
    );
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    request.raw.res.once('close', stop);
};

export const registerRequestBodies = (server: Hapi.Server, options: { bodyTimeoutSeconds: number }): void => {
    server.ext('onRequest', (request, h) => {
        const req = request.raw.req;
        if (req.headers['content-length'] || req.headers['transfer-encoding']) {
            watchBody(request, options.bodyTimeoutSeconds * 1000);
        }

        return h.continue;
    });

    // Before auth and before hapi starts reading: a declared length over the limit needs no body.
    server.ext('onPreAuth', (request, h) => {
        const limit = request.route.settings.payload?.maxBytes;
        const declared = Number(request.headers['content-length']);
        if (limit !== undefined && declared > limit && request.method !== 'get' && request.method !== 'head') {
            (request.plugins as Record<symbol, boolean>)[CLOSE] = true;
            throw tooLarge(request, h, limit);
        }

        return h.continue;
    });

    // After parsing, before joi or the engine walk the body recursively.
    server.ext('onPostAuth', (request, h) => {
        if (/^application\/(?:.+\+)?json$/.test(request.mime ?? '') && nestedDeeperThan(request.payload, MAX_JSON_DEPTH)) {
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
