// The commands that hints tell the user to type next. A pasted hint must do what it says to the same
// account on the same server: `flowctl verify …` without `--profile n2` signs the DEFAULT profile in,
// replacing the user's main sign-in. So each carries this invocation's --profile (when not the
// default) and its --api-url (when, left out, the pasted command would go to another server).
import { normalizeApiUrl } from './api-url.js';
import type { Ctx } from './context.js';
import { DEFAULT_API_URL, readProfile } from './credentials.js';

/** `text` as one shell word: as is when it is plain, else single-quoted. */
export const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** The flags a command pasted from a hint needs to reach the same profile and server as this one. */
export const sameTargetFlags = (ctx: Ctx | undefined): string[] => {
    if (!ctx) {
        return [];
    }

    const flags = ctx.profile === 'default' ? [] : [`--profile ${shellWord(ctx.profile)}`];
    const url = ctx.apiUrlFlag === undefined ? null : normalizeApiUrl(ctx.apiUrlFlag);
    if (url) {
        // Read when the hint is made: register and login save the server to the profile, and then
        // the flag is no longer needed.
        const without = ctx.io.env.FLOWCTL_API_URL || readProfile(ctx.profile, ctx.io.env).apiUrl || DEFAULT_API_URL;
        if (normalizeApiUrl(without) !== url) {
            flags.push(`--api-url ${url}`);
        }
    }

    return flags;
};

/** `flowctl <rest>`, with the flags that make it act on this invocation's profile and server. */
export const flowctlCommand = (ctx: Ctx | undefined, rest: string): string => ['flowctl', rest, ...sameTargetFlags(ctx)].join(' ');
