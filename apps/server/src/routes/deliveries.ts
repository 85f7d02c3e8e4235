import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { nextLink, pageQuery, PAGE_NOTES } from '../http/paging.js';
import type { Services } from '../services/index.js';
import { LEDGER_STATUSES, type LedgerStatus } from '../store/delivery-status.js';

const deliveryEntry = Joi.object({
    nodeId: Joi.string().required(),
    index: Joi.number().integer().required().description("Element index in the OUTPUT node's forEach, from 0"),
    to: Joi.string().allow(null).required().description('The recipient; null while pending, or when the element had no address'),
    status: Joi.string()
        .valid(...LEDGER_STATUSES)
        .required(),
    messageId: Joi.string().allow(null).required(),
    error: Joi.string().allow(null).required().description('Why it failed'),
    attempts: Joi.number().integer().required().description('Copies this run handed to the mail server (more than 1 after an interruption)'),
    at: Joi.string().isoDate().allow(null).required().description('When the record last changed; null while pending')
}).label('Delivery');

export const deliveryRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/api/workflows/runs/{runId}/deliveries',
        options: {
            tags: ['api', 'runs'],
            description: 'Who got what: one entry per element of each OUTPUT node',
            notes: [
                "Read from the run's delivery records, not from logs: answers whether an address got its e-mail after a failed mail server, a crash or a retry. In OUTPUT node (graph order) and element order.",
                'status: sent (accepted by the mail server); failed (refused, or not sendable: a bad address, a field the row lacks; error says why); unknown (handed to the mail server and no answer recorded: under way while the run runs; after it ended, it may have arrived, as counted in unknownOutcome, and no retry sends it); pending (no record: not reached yet, or never, as the run stopped first; to is null); suppressed (the address is on the suppression list).',
                "Pending elements are listed once the OUTPUT node has started. A retry run lists the e-mails it sent again; the run it retries keeps its own records.",
                PAGE_NOTES
            ],
            validate: {
                params: Joi.object({ runId: Joi.string().max(200).required() }),
                query: Joi.object({
                    status: Joi.string()
                        .valid(...LEDGER_STATUSES)
                        .description('Only entries of this status'),
                    ...pageQuery
                })
            },
            response: { status: { 200: Joi.array().items(deliveryEntry) } },
            plugins: { owner: { kind: 'run', param: 'runId' } }
        },
        handler: async (request, h) => {
            const { runId } = request.params as { runId: string };
            const query = request.query as { status?: LedgerStatus; limit: number; cursor?: string };
            const page = await services.deliveries.list(accountIdOf(request), runId, query);
            const response = h.response(page.items);
            if (page.next) {
                const next = { ...(query.status ? { status: query.status } : {}), limit: query.limit, cursor: page.next };
                response.header('link', nextLink(`/api/workflows/runs/${encodeURIComponent(runId)}/deliveries`, next));
            }

            return response;
        }
    }
];
