import Boom from '@hapi/boom';

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
