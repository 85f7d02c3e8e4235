import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf } from '../http/auth.js';
import { jsonPayload } from '../http/json-payload.js';
import type { Services } from '../services/index.js';
import type { SettingsChange } from '../services/settings.js';

const settingsView = Joi.object({
    ai: Joi.object({
        apiKeySet: Joi.boolean().required(),
        apiKeyLast4: Joi.string().allow(null).required().description('Last four characters of the key; null when unset or shorter than 12 characters'),
        keyInUse: Joi.string()
            .valid('account', 'server', 'none')
            .required()
            .description("Whose key AI nodes use: the account's, the server's own (its OPENAI_API_KEY, when the account set none), or none (AI nodes fail)"),
        baseUrl: Joi.string().allow(null).required(),
        model: Joi.string().allow(null).required(),
        concurrency: Joi.number().integer().allow(null).required().description("Model calls in flight per AI node at most; null: the server's AI_CONCURRENCY")
    }).required()
});

const settingsChange = Joi.object({
    ai: Joi.object({
        apiKey: Joi.string()
            .trim()
            .min(1)
            .max(1000)
            .allow(null)
            .description('Write-only; stored encrypted. null removes it.')
            .messages({ 'string.empty': "'apiKey' must not be empty: send null to remove the key" }),
        baseUrl: Joi.string()
            .trim()
            .uri({ scheme: ['http', 'https'] })
            .max(2000)
            .allow(null)
            .description('An OpenAI-compatible endpoint, e.g. https://api.openai.com/v1. null: the server default.'),
        model: Joi.string().trim().min(1).max(200).allow(null).description('null: the server default.'),
        concurrency: Joi.number()
            .integer()
            .min(1)
            .max(1000)
            .allow(null)
            .description("Fewer model calls in flight per AI node than the server's AI_CONCURRENCY (a higher value has no effect). null: the server's.")
    })
});

export const settingsRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'GET',
        path: '/api/account/settings',
        options: {
            tags: ['api', 'account'],
            description: 'The account settings (the AI API key only as set or not, and its last four characters)',
            response: { status: { 200: settingsView } }
        },
        handler: (request) => services.accounts.getSettings(accountIdOf(request))
    },
    {
        method: 'PUT',
        path: '/api/account/settings',
        options: {
            tags: ['api', 'account'],
            description: 'Change account settings',
            notes: 'Fields left out keep their value; null clears one. Answers with the settings as GET shows them.',
            payload: jsonPayload(16 * 1024),
            validate: { payload: settingsChange },
            response: { status: { 200: settingsView } }
        },
        handler: (request) => services.accounts.updateSettings(accountIdOf(request), (request.payload ?? {}) as SettingsChange)
    }
];
