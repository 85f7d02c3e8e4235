import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { explainPayloadErrors, formatBytes } from '../http/payload.js';
import type { Services } from '../services/index.js';
import { DEFAULT_PREVIEW_LIMIT, MAX_PREVIEW_LIMIT, type PreviewInput, TEST_EMAILS_PER_SEND, TEST_SENDS_PER_HOUR } from '../services/preview.js';
import { graph } from './workflows.js';

const params = Joi.object({ workflowId: Joi.string().max(200).required() });

const body = Joi.object({
    limit: Joi.number()
        .integer()
        .min(1)
        .max(MAX_PREVIEW_LIMIT)
        .description(`E-mails shown per OUTPUT node (default ${DEFAULT_PREVIEW_LIMIT}); also the most elements each AI node asks the model about`),
    graph: graph.description('An unsaved graph to preview instead of the saved one; validated like create'),
    sendTestTo: Joi.string()
        .valid('me')
        .description(`"me": also sends the shown e-mails to your own account address (never to the rows' addresses), subject prefixed "[test] "; the first ${TEST_EMAILS_PER_SEND} of them at most, and at most ${TEST_SENDS_PER_HOUR} test sends an hour`)
})
    .allow(null)
    .description('Optional');

const email = Joi.object({
    nodeId: Joi.string().required(),
    index: Joi.number().integer().required().description("The element's index in the OUTPUT's forEach"),
    from: Joi.string().required().description('The sender a run uses (MAIL_FROM)'),
    to: Joi.string().allow('').required(),
    subject: Joi.string().allow('').required(),
    text: Joi.string().allow('').required(),
    html: Joi.string().description('Present when the OUTPUT has an html part'),
    suppressed: Joi.boolean().required().description('The address is on the suppression list: a run would not mail it')
});

const node = Joi.object({
    nodeId: Joi.string().required(),
    type: Joi.string().required(),
    status: Joi.string().valid('SUCCESS', 'FAILED', 'SKIPPED').required(),
    error: Joi.string().allow(null).required(),
    output: Joi.object()
        .unknown()
        .allow(null)
        .required()
        .description('As in run detail (arrays as {count, first}); an OUTPUT node shows {emailsToSend, suppressed}; an AI node counts elements not asked as aiNotAsked')
});

const preview = Joi.object({
    emails: Joi.array().items(email).required().description('The first `limit` e-mails per OUTPUT node, as a run would render them now'),
    nodes: Joi.array().items(node).required().description('In graph order'),
    result: Joi.object({
        totalRows: Joi.number().integer().required(),
        filteredOut: Joi.number().integer().required(),
        emailsToSend: Joi.number()
            .integer()
            .allow(null)
            .required()
            .description('What a run would send now; null when that depends on model replies the preview did not ask for'),
        suppressed: Joi.number().integer().required()
    }).required(),
    testSent: Joi.number().integer().description('With sendTestTo: test e-mails sent to your address')
});

export const previewRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'POST',
        path: '/api/workflows/{workflowId}/preview',
        options: {
            tags: ['api', 'workflows'],
            description: 'Preview what a run would send now',
            notes:
                'Executes the graph as a run would, sending nothing and recording no run: the first `limit` e-mails per OUTPUT node, every node’s state and output, and the counts. ' +
                'A node that fails answers 200 with its error; an invalid `graph` answers 400 like create. AI nodes ask the model only for the elements the shown e-mails need; ' +
                'a run enqueued later reuses those replies. One preview at a time per account (429 with Retry-After).',
            payload: {
                allow: 'application/json',
                failAction: explainPayloadErrors({
                    tooLarge: (limit) => `The request body is larger than ${formatBytes(limit)}.`,
                    wrongType: (received) => `Send the preview options as JSON with Content-Type: application/json (got ${received}).`
                })
            },
            validate: { params, payload: body, options: { abortEarly: false } },
            response: { status: { 200: preview } },
            plugins: { owner: { kind: 'workflow', param: 'workflowId' }, openapi: { errors: [502] } }
        },
        handler: async (request) => {
            // A client that gives up stops the work at the next element boundary.
            const stop = new AbortController();
            const onClose = () => {
                if (!request.raw.res.writableFinished) {
                    stop.abort();
                }
            };
            request.raw.res.once('close', onClose);
            try {
                return await services.preview.preview(
                    accountIdOf(request),
                    (request.params as { workflowId: string }).workflowId,
                    (request.payload ?? {}) as PreviewInput,
                    stop.signal
                );
            } finally {
                request.raw.res.off('close', onClose);
            }
        }
    }
];
