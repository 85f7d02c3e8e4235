import type Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';
import type Joi from 'joi';

import { badRequest } from '../services/errors.js';

/**
 * Problems named in the message, and listed in `details`, at most: a body of 70,000 unknown fields was
 * answered with 5.5 MB naming each one twice.
 */
const IN_MESSAGE = 10;
const IN_DETAILS = 100;

export const failValidation: Hapi.Lifecycle.Method = (_request, _h, err) => {
    const joiError = (err as Boom.Boom & { details?: Joi.ValidationErrorItem[] }) ?? {};
    const items = joiError.details ?? [];
    const details = items.slice(0, IN_DETAILS).map((item) => ({ path: item.path.join('.'), message: item.message.replace(/"/g, "'") }));
    const source = (joiError.output?.payload as { validation?: { source?: string } } | undefined)?.validation?.source ?? 'input';
    const more = items.length - IN_MESSAGE;
    const summary =
        details.length > 0
            ? `${details
                  .slice(0, IN_MESSAGE)
                  .map((d) => d.message)
                  .join('; ')}${more > 0 ? `; and ${more.toLocaleString('en')} more (${items.length > IN_DETAILS ? `the first ${IN_DETAILS}` : 'all'} in details)` : ''}`
            : (err?.message ?? 'invalid input');
    throw badRequest(`Invalid request ${source}: ${summary}`, details);
};
