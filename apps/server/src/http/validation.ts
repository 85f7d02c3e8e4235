import type Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';
import type Joi from 'joi';

import { badRequest } from '../services/errors.js';


export const failValidation: Hapi.Lifecycle.Method = (_request, _h, err) => {
    const joiError = (err as Boom.Boom & { details?: Joi.ValidationErrorItem[] }) ?? {};
    const items = joiError.details ?? [];
    const details = items.map((item) => ({ path: item.path.join('.'), message: item.message.replace(/"/g, "'") }));
    const source = (joiError.output?.payload as { validation?: { source?: string } } | undefined)?.validation?.source ?? 'input';
    const summary = details.length > 0 ? details.map((d) => d.message).join('; ') : (err?.message ?? 'invalid input');
    throw badRequest(`Invalid request ${source}: ${summary}`, details);
};
