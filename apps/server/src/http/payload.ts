import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';

const KIB = 1024;
const MIB = 1024 * 1024;

/** `50 MiB`, `1 KiB`, or the exact byte count when it is not a round size. */
export const formatBytes = (bytes: number): string => {
    if (bytes >= MIB && bytes % MIB === 0) {
        return `${bytes / MIB} MiB`;
    }

    if (bytes >= KIB && bytes % KIB === 0) {
        return `${bytes / KIB} KiB`;
    }

    return `${bytes} bytes`;
};

/**
 * A payload failAction that rewords hapi's 413 and 415 so they say what to send instead.
 * `tooLarge` and `wrongType` are given the limit in bytes and the content type received.
 */
export const explainPayloadErrors =
    (messages: { tooLarge: (limit: number) => string; wrongType: (received: string) => string }): Hapi.Lifecycle.Method =>
    (request, _h, err) => {
        const status = Boom.isBoom(err) ? err.output.statusCode : 0;
        if (status === 413) {
            throw Boom.entityTooLarge(messages.tooLarge(request.route.settings.payload?.maxBytes ?? 0));
        }

        if (status === 415) {
            throw Boom.unsupportedMediaType(messages.wrongType((request.headers['content-type'] as string | undefined) ?? 'no Content-Type'));
        }

        throw err;
    };
