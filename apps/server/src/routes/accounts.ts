import { emailAddressProblem, INVISIBLE_CHARACTER } from '@flowctl/engine';
import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';

import { accountIdOf, sessionIdOf, signedInAtOf } from '../http/auth.js';
import { usesApiToken } from '../http/api-token-auth.js';
import { jsonPayload } from '../http/json-payload.js';
import type { Services } from '../services/index.js';
import { tokenView } from './tokens.js';

// Sign-in bodies are small; anything bigger is a mistake or an attack.
const AUTH_PAYLOAD = jsonPayload(16 * 1024);

// Characters that make an address look like another one (bidi controls, zero-width and other
// default-ignorable characters, format characters, noncharacters, lone surrogates): the same check as
// a run's recipients (the engine's INVISIBLE_CHARACTER), before anything else, so the answer names them
// rather than calling the address malformed.
//
// Then the engine's recipient check (emailAddressProblem, what OUTPUT refuses) before joi's: joi's
// lets Unicode space separators (U+00A0, U+2028, U+3000…) and controls (U+0085) through, and a mail
// transport splits or rewrites the address there, so the code would go to someone else.
//
// Any domain: a self-hosted server may serve internal domains that are not public top-level domains.
const email = Joi.string()
    .pattern(INVISIBLE_CHARACTER, { invert: true, name: 'deceptive' })
    .trim()
    .custom((value: string, helpers) => {
        const problem = emailAddressProblem(value);
        return problem ? helpers.error('string.deliverable', { problem }) : value;
    })
    .email({ tlds: { allow: false } })
    .max(254)
    .required()
    .description('The account’s e-mail address (case-insensitive)')
    .messages({
        'string.pattern.invert.name':
            "'email' must not contain invisible or direction-changing characters (bidi controls, zero-width, format or noncharacter code points) or unpaired surrogates: type the address again",
        'string.deliverable': "'email' is not an address mail can be sent to ({#problem}): write one plain address such as ann@example.com, without spaces, line breaks or control characters"
    });
const password = Joi.string().min(8).max(256).required();
const fullName = Joi.string()
    .trim()
    .min(1)
    .max(200)
    .pattern(/^[^\u0000-\u001f\u007f]*$/, 'no control characters')
    .required()
    .messages({ 'string.pattern.name': "'fullName' must not contain line breaks or other control characters" });
const otp = Joi.string()
    .trim()
    .pattern(/^\d{6}$/)
    .required()
    .description('The six-digit code from the e-mail')
    .messages({ 'string.pattern.base': "'otp' must be the six digits from the verification e-mail" });
const refreshToken = Joi.string().max(512).required().description('The refresh token from log-in, verify-email or the previous refresh');
const resetOtp = otp.description('The six-digit code from the password reset e-mail').messages({
    'string.pattern.base': "'otp' must be the six digits from the password reset e-mail"
});

const message = Joi.object({ message: Joi.string().required() });
const tokens = Joi.object({
    accessToken: Joi.string().required().description('JWT for `Authorization: Bearer …`'),
    refreshToken: Joi.string().required().description('Works once: exchange it at POST /api/auth/refresh-token for a new pair'),
    expiresIn: Joi.number().integer().required().description('Seconds until the access token expires')
});
const verified = tokens
    .keys({
        passwordSetupRequired: Joi.boolean()
            .required()
            .description(
                'true when more than one sign-up of the address was pending: none of their passwords was kept, so set one with POST /api/auth/password before logging in with a password'
            )
    })
    .label('VerifiedTokens');
const passwordChange = Joi.object({
    revokedApiTokens: Joi.array().items(tokenView).required().description('Personal API tokens created by the sessions this signed out: revoked with them'),
    apiTokens: Joi.array().items(tokenView).required().description('Every personal API token still working, newest first')
}).label('PasswordChange');
const account = Joi.object({
    id: Joi.string().required(),
    email: Joi.string().required(),
    fullName: Joi.string().required(),
    createdAt: Joi.string().isoDate().required()
});

export const accountRoutes = (services: Services): ServerRoute[] => [
    {
        method: 'POST',
        path: '/api/auth/register',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'Create an account and e-mail a six-digit verification code',
            notes: [
                'Always 201 with the same message, whether the address is unknown, awaiting verification or verified (a verified address is e-mailed how to log in or reset its password instead of a code).',
                'Each registration of an unverified address is a sign-up of its own: its code activates only the password and name given with it, never those of another registration of the same address.'
            ],
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ email, password, fullName }) },
            response: { status: { 201: message } },
            plugins: { rateLimit: { bucket: 'otp-mail' }, openapi: { errors: [503] } }
        },
        handler: async (request, h) => {
            const input = request.payload as { email: string; password: string; fullName: string };
            return h.response(await services.accounts.register(input)).code(201);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/verify-email',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'Confirm the e-mailed code; activates the account and returns tokens',
            notes: [
                'A code lasts 10 minutes and allows 5 wrong tries; after that, request a new one with POST /api/auth/resend-otp. Every wrong case (unknown address, wrong, expired or used-up code, address already verified) answers the same 400.',
                'When more than one sign-up of the address was pending, no password or name given at sign-up is kept (any of them may be a stranger’s; the account is named after its address): the answer says `passwordSetupRequired: true`, and the account needs POST /api/auth/password (with these tokens) or a password reset before a password log-in works.'
            ],
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ email, otp }) },
            response: { status: { 200: verified } },
            plugins: { rateLimit: { bucket: 'verify-email' }, openapi: { errors: [409] } }
        },
        handler: (request) => {
            const input = request.payload as { email: string; otp: string };
            return services.accounts.verifyEmail(input.email, input.otp);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/resend-otp',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'E-mail a new verification code',
            notes: 'Always 202 with the same message, whether or not the address has an account, so it cannot be used to find accounts. At most one code a minute per address: within a minute of the last resend or registration of the address, 429 with Retry-After (the seconds to wait), for every address alike. When several sign-ups of the address are pending, no code is sent, only a note to register again.',
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ email }) },
            response: { status: { 202: message } },
            plugins: { rateLimit: { bucket: 'otp-mail' } }
        },
        handler: async (request, h) => {
            const input = request.payload as { email: string };
            return h.response(await services.accounts.resendOtp(input.email)).code(202);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/login',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'Log in with e-mail address and password',
            notes: 'A wrong password and an unknown address both answer 401 with the same message; an unverified account answers 403.',
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ email, password: Joi.string().max(256).required() }) },
            response: { status: { 200: tokens } },
            plugins: { rateLimit: { bucket: 'login' }, openapi: { errors: [401, 403] } }
        },
        handler: (request) => {
            const input = request.payload as { email: string; password: string };
            return services.accounts.login(input.email, input.password);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/refresh-token',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'Exchange a refresh token for a new access token and a new refresh token',
            notes: 'Refresh tokens last 30 days and work once. Presenting one that was already used signs that session out (every token descended from the same log-in) and answers 401.',
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ refreshToken }) },
            response: { status: { 200: tokens } },
            plugins: { rateLimit: { bucket: 'refresh' }, openapi: { errors: [401] } }
        },
        handler: (request) => services.accounts.refresh((request.payload as { refreshToken: string }).refreshToken)
    },
    {
        method: 'POST',
        path: '/api/auth/logout',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'Sign out: revoke the session the refresh token belongs to',
            notes: 'Every refresh token descended from the same log-in stops working; access tokens already issued expire on their own within 15 minutes. An unknown or already revoked token answers 204 too.',
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ refreshToken }) },
            response: { status: { 204: Joi.any().empty() } },
            plugins: { rateLimit: { bucket: 'refresh' } }
        },
        handler: async (request, h) => {
            await services.accounts.logout((request.payload as { refreshToken: string }).refreshToken);
            return h.response().code(204);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/forgot-password',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'E-mail a six-digit code to reset the password',
            notes: 'Always 202 with the same message, whether or not the address has a verified account. At most one code a minute is sent.',
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ email }) },
            response: { status: { 202: message } },
            plugins: { rateLimit: { bucket: 'otp-mail' } }
        },
        handler: async (request, h) => {
            const input = request.payload as { email: string };
            return h.response(await services.accounts.forgotPassword(input.email)).code(202);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/reset-password',
        options: {
            auth: false,
            tags: ['api', 'account'],
            description: 'Set a new password with the e-mailed reset code; signs every session out',
            notes: 'A code lasts 10 minutes, allows 5 wrong tries and works once. Every refresh token of the account is revoked; log in again with the new password. Every wrong case answers the same 400.',
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ email, otp: resetOtp, newPassword: password }) },
            response: { status: { 204: Joi.any().empty() } },
            plugins: { rateLimit: { bucket: 'verify-email' } }
        },
        handler: async (request, h) => {
            await services.accounts.resetPassword(request.payload as { email: string; otp: string; newPassword: string });
            return h.response().code(204);
        }
    },
    {
        method: 'POST',
        path: '/api/auth/password',
        options: {
            tags: ['api', 'account'],
            description: 'Set the account’s password; signs every other session out',
            notes: [
                'Needs an access token from a sign-in (log-in or verify-email) of the last 10 minutes, or the current password as `password` (403 otherwise); an API token cannot (403). The way to get a password after a contested sign-up (verify-email answered `passwordSetupRequired: true`).',
                'Every other session is signed out (its access and refresh tokens answer 401), and the personal API tokens those sessions created are revoked with them: `revokedApiTokens`. This session stays, with its own tokens. Tokens created by sessions that had already ended, or before the server recorded which session created a token, are kept: `apiTokens` lists every token still working, to revoke any not recognised with DELETE /api/account/tokens/{id}.'
            ],
            payload: AUTH_PAYLOAD,
            validate: { payload: Joi.object({ newPassword: password, password: Joi.string().max(256).description('The current password, when the sign-in is older than 10 minutes') }) },
            response: { status: { 200: passwordChange } },
            // A wrong current `password` is a password guess like a wrong log-in: it shares log-in's limit.
            plugins: { rateLimit: { bucket: 'login' }, openapi: { errors: [403] } },
            app: { freshSignIn: true }
        },
        handler: (request) => {
            if (usesApiToken(request)) {
                throw Boom.forbidden('An API token cannot set the password: log in and use the access token');
            }

            const input = request.payload as { newPassword: string; password?: string };
            // Not an API token (refused above): the request has a session.
            return services.accounts.setPassword(accountIdOf(request), { ...input, sessionId: sessionIdOf(request)!, signedInAt: signedInAtOf(request) });
        }
    },
    {
        method: 'GET',
        path: '/api/auth/me',
        options: {
            tags: ['api', 'account'],
            description: 'The account the access token belongs to',
            response: { status: { 200: account } }
        },
        handler: (request) => services.accounts.me(accountIdOf(request))
    }
];
