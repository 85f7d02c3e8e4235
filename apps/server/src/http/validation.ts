import Boom from '@hapi/boom';
import type * as Hapi from '@hapi/hapi';
import type Joi from 'joi';

export interface ProblemDetail {
    path: string;
    message: string;
}

/** A 400 that lists every problem with its path, so a client can point at each field. */
export const badRequest = (message: string, details: ProblemDetail[]): Boom.Boom => {
    const error = Boom.badRequest(message);
    (error.output.payload as unknown as { details: ProblemDetail[] }).details = details;
    return error;
};

export const failValidation: Hapi.Lifecycle.Method = (_request, _h, err) => {
    const joiError = (err as Boom.Boom & { details?: Joi.ValidationErrorItem[] }) ?? {};
    const items = joiError.details ?? [];
    const details = items.map((item) => ({ path: item.path.join('.'), message: item.message.replace(/"/g, "'") }));
    const source = (joiError.output?.payload as { validation?: { source?: string } } | undefined)?.validation?.source ?? 'input';
    const summary = details.length > 0 ? details.map((d) => d.message).join('; ') : (err?.message ?? 'invalid input');
    throw badRequest(`Invalid request ${source}: ${summary}`, details);
};
