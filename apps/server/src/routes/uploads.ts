import type { Readable } from 'node:stream';

import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import type { Context } from '../context.js';
import { accountIdOf } from '../http/auth.js';
import { receiveSingleFile } from '../http/multipart.js';
import { PAGE_NOTES, pageQuery, pageResponse } from '../http/paging.js';
import { explainPayloadErrors, formatBytes } from '../http/payload.js';
import type { Services } from '../services/index.js';
import type { ListQuery } from '../services/paging.js';
import type { CreatedUpload } from '../services/uploads.js';

// Room for the multipart envelope (boundaries, part headers, small extra fields) beyond the file itself.
const ENVELOPE_BYTES = 64 * 1024;

const uploadView = Joi.object({
    uploadId: Joi.string().required(),
    filename: Joi.string().allow('').required(),
    rows: Joi.number().integer().min(0).required().description('Data rows, the header row excluded'),
    columns: Joi.array().items(Joi.string()).required().description('Column names from the header row, trimmed'),
    sizeBytes: Joi.number().integer().min(0).required(),
    sha256: Joi.string()
        .pattern(/^[0-9a-f]{64}$/)
        .allow(null)
        .required()
        .description('Hex SHA-256 of the bytes; null for uploads stored before the server kept it'),
    createdAt: Joi.string().isoDate().required()
}).label('Upload');

const uploadParams = Joi.object({ uploadId: Joi.string().required() });

const multipartBody = {
    required: true,
    content: {
        'multipart/form-data': {
            schema: {
                type: 'object',
                required: ['file'],
                properties: { file: { type: 'string', format: 'binary', description: 'A UTF-8 CSV whose first row names the columns' } }
            }
        }
    }
};

export const uploadRoutes = (ctx: Context, services: Services): ServerRoute[] => {
    const limit = ctx.config.maxUploadBytes;
    const tooLarge = () => `The file is larger than the upload limit of ${formatBytes(limit)} (${limit} bytes; the server's MAX_UPLOAD_BYTES).`;

    return [
        {
            method: 'POST',
            path: '/api/uploads',
            options: {
                tags: ['api', 'uploads'],
                description: 'Upload a CSV file',
                notes: [
                    "multipart/form-data with the file in a field named 'file'. The file must be UTF-8 with a header row of unique, non-empty column names, and the same number of fields on every row.",
                    `It is checked while it streams in; on any problem nothing is kept. At most ${formatBytes(limit)}.`,
                    'The same bytes under the same name as an upload the account already has answer 200 with that upload (its `uploadId`), and keep no second copy: applying unchanged files from a fresh machine creates nothing. A new upload answers 201. A deleted upload is not matched.',
                    "The file's name (the part's `filename`, or `filename*`) is kept without any folder path, up to 255 characters. A name with a control character (ESC, CSI, BEL, a line break, tab), a bidi control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) or another invisible format character (zero-width space, soft hyphen, BOM…) is refused with 400: it would show as another name. ZWNJ and ZWJ are kept. Names stored by earlier versions with such characters are shown with each one written as `<U+202E>`."
                ],
                payload: {
                    // Raw and streamed: hapi's own multipart parsing would hold the whole file in memory.
                    output: 'stream',
                    parse: false,
                    allow: 'multipart/form-data',
                    maxBytes: limit + ENVELOPE_BYTES,
                    failAction: explainPayloadErrors({
                        tooLarge,
                        wrongType: (received) => `Send the CSV as multipart/form-data with the file in a field named 'file' (got ${received}).`
                    })
                },
                response: { status: { 200: uploadView, 201: uploadView } },
                plugins: { openapi: { status: 201, requestBody: multipartBody } }
            },
            handler: async (request, h) => {
                const accountId = accountIdOf(request);
                const stored = await receiveSingleFile<CreatedUpload>(request.payload as Readable, request.headers['content-type'] as string | undefined, {
                    field: 'file',
                    maxBodyBytes: limit + ENVELOPE_BYTES,
                    limits: { maxParts: 20, maxHeaderBytes: 16 * 1024, maxPartBytes: limit, tooLarge: () => Boom.entityTooLarge(tooLarge()) },
                    accept: (part) => services.uploads.create(accountId, { filename: part.filename, body: part.body }),
                    // An upload found already stored is not this request's to take back.
                    undo: async (result) => (result.created ? services.uploads.remove(accountId, result.upload.uploadId) : undefined)
                });
                return h.response(stored.upload).code(stored.created ? 201 : 200);
            }
        },
        {
            method: 'GET',
            path: '/api/uploads',
            options: {
                tags: ['api', 'uploads'],
                description: 'List uploads, newest first',
                notes: [PAGE_NOTES, 'With `sha256`, only uploads of those bytes: how a client asks whether the server already has a file without sending it.'],
                validate: {
                    query: Joi.object({
                        ...pageQuery,
                        sha256: Joi.string()
                            .pattern(/^[0-9a-fA-F]{64}$/)
                            .description('Hex SHA-256 of a file: list only uploads of those bytes')
                            .messages({ 'string.pattern.base': "'sha256' must be 64 hexadecimal digits (the SHA-256 of the file)" })
                    })
                },
                response: { status: { 200: Joi.array().items(uploadView) } }
            },
            handler: async (request, h) => pageResponse(h, request, await services.uploads.list(accountIdOf(request), request.query as ListQuery & { sha256?: string }))
        },
        {
            method: 'GET',
            path: '/api/uploads/{uploadId}',
            options: {
                tags: ['api', 'uploads'],
                description: 'One upload’s metadata',
                validate: { params: uploadParams },
                response: { status: { 200: uploadView } }
            },
            handler: (request) => services.uploads.get(accountIdOf(request), (request.params as { uploadId: string }).uploadId)
        },
        {
            method: 'DELETE',
            path: '/api/uploads/{uploadId}',
            options: {
                tags: ['api', 'uploads'],
                description: 'Delete an upload and its bytes',
                notes: 'Answers 409, naming them, while workflows of the account or runs not yet finished read the upload: they would otherwise fail later.',
                validate: { params: uploadParams },
                response: { status: { 204: Joi.any().empty() } },
                plugins: { owner: { kind: 'upload', param: 'uploadId' }, openapi: { errors: [409] } }
            },
            handler: async (request, h) => {
                await services.uploads.remove(accountIdOf(request), (request.params as { uploadId: string }).uploadId);
                return h.response().code(204);
            }
        }
    ];
};
