// The SDK client for this invocation. FLOWCTL_TOKEN and FLOWCTL_API_URL beat the saved profile
// (an explicit --api-url beats them all); refreshed tokens are written back to the profile.
import type { Flowctl } from '@flowctl/sdk';

import type { Ctx } from './context.js';
import { DEFAULT_API_URL, readProfile, updateProfile } from './credentials.js';
import { notSignedIn } from './errors.js';

export const apiUrlOf = (ctx: Ctx): string =>
    (ctx.apiUrlFlag ?? ctx.io.env.FLOWCTL_API_URL ?? readProfile(ctx.profile, ctx.io.env).apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '');

/** Where the credentials of this invocation come from, for `whoami` and error messages. */
export const credentialSource = (ctx: Ctx): 'FLOWCTL_TOKEN' | 'profile' | null => {
    if (ctx.io.env.FLOWCTL_TOKEN) {
        return 'FLOWCTL_TOKEN';
    }

    const profile = readProfile(ctx.profile, ctx.io.env);
    return profile.accessToken || profile.refreshToken ? 'profile' : null;
};

/** A client without credentials, for register / verify / login. */
export const anonymousClient = async (ctx: Ctx): Promise<Flowctl> => {
    const { Flowctl } = await import('@flowctl/sdk');
    return new Flowctl({ baseUrl: apiUrlOf(ctx), onTokens: (pair) => saveTokens(ctx, pair) });
};

export const saveTokens = (ctx: Ctx, pair: { accessToken: string; refreshToken: string }): void => {
    updateProfile(ctx.profile, { accessToken: pair.accessToken, refreshToken: pair.refreshToken }, ctx.io.env);
};

/** A signed-in client, or exit 3 with the command to sign in. */
export const client = async (ctx: Ctx): Promise<Flowctl> => {
    const baseUrl = apiUrlOf(ctx);
    const apiToken = ctx.io.env.FLOWCTL_TOKEN;
    const profile = readProfile(ctx.profile, ctx.io.env);
    if (!apiToken && !profile.accessToken && !profile.refreshToken) {
        throw notSignedIn(ctx.profile === 'default' ? 'not signed in' : `not signed in (profile '${ctx.profile}')`);
    }

    const { Flowctl } = await import('@flowctl/sdk');
    if (apiToken) {
        return new Flowctl({ baseUrl, apiToken });
    }

    return new Flowctl({
        baseUrl,
        accessToken: profile.accessToken,
        refreshToken: profile.refreshToken,
        onTokens: (pair) => saveTokens(ctx, pair)
    });
};
