import Boom from '@hapi/boom';
import { emailAddressProblem, suppressionKey } from '@flowctl/engine';

import type { Context } from '../context.js';
import { returnPathFor } from '../mail/bounces/verp.js';
import { openUnsubscribeToken, sealUnsubscribeToken, type TokenKeys, unsubscribeKeys } from '../mail/unsubscribe-token.js';
import { findAccountById } from '../store/accounts.js';
import {
    addSuppressions,
    listSuppressions,
    removeSuppression,
    type SuppressionEntry,
    type SuppressionReason,
    suppressedAmong
} from '../store/suppressions.js';
import { badRequest } from './errors.js';
import { type ListPage, type ListQuery, pageOut, pageRequest } from './paging.js';

/** Addresses one POST /api/suppressions may carry: an import sends its file in batches of this many. */
export const MAX_SUPPRESSIONS_PER_REQUEST = 5000;

export interface SuppressionView {
    email: string;
    reason: SuppressionReason;
    workflowId: string | null;
    createdAt: string;
}

/** What a run needs of the list and the links (see worker/ports.ts). */
export interface RunConsent {
    /** The keys among `keys` (suppressionKey()) that the account must not mail. */
    suppressedAmong(accountId: string, keys: string[]): Promise<ReadonlySet<string>>;
    unsubscribeUrl(accountId: string, workflowId: string, to: string): string;
    /** The envelope sender carrying the VERP token of (account, address); undefined when no bounce receiver is set up. */
    returnPath(accountId: string, to: string): string | undefined;
    suppress(accountId: string, workflowId: string | null, email: string, reason: SuppressionReason): Promise<void>;
}

/** What the unsubscribe page shows: the address half hidden, and who sent the e-mail. */
export interface UnsubscribeTarget {
    maskedEmail: string;
    sender: string;
}

export interface SuppressionsService {
    list(accountId: string, query: ListQuery): Promise<ListPage<SuppressionView>>;
    /** Reason `manual`; 400 naming every address that is not one. */
    add(accountId: string, emails: string[]): Promise<{ added: number; alreadyPresent: number }>;
    /** 404 when the address is not on the list. */
    remove(accountId: string, email: string): Promise<void>;
    /** 404 for a token this server did not make, or whose account is gone. */
    target(token: string): Promise<UnsubscribeTarget>;
    /** Suppresses the token's address as `unsubscribed` (again: nothing changes). 404 as target(). */
    unsubscribe(token: string): Promise<void>;
    /** Adds to the list for a reason found by the server itself (a bounce, a complaint). */
    suppress(accountId: string, workflowId: string | null, emails: string[], reason: SuppressionReason): Promise<number>;
    consent: RunConsent;
}

/** `jane.doe@example.com` as `j•••e@example.com`: enough for its owner to recognise, little for anyone else. */
export const maskEmail = (email: string): string => {
    const at = email.lastIndexOf('@');
    const local = at < 0 ? email : email.slice(0, at);
    const domain = at < 0 ? '' : email.slice(at);
    const chars = [...local];
    const shown = chars.length <= 2 ? `${chars[0] ?? ''}•••` : `${chars[0]}•••${chars[chars.length - 1]}`;
    return `${shown}${domain}`;
};

/** PUBLIC_URL, else the address this server listens on (a wildcard listen address as localhost). */
export const publicBase = (config: Context['config']): string => {
    if (config.publicUrl) {
        return config.publicUrl.replace(/\/+$/, '');
    }

    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
    return `http://${host}:${config.port}`;
};

const entriesOf = (emails: string[]): SuppressionEntry[] => {
    const seen = new Map<string, SuppressionEntry>();
    for (const raw of emails) {
        const email = raw.trim();
        const key = suppressionKey(email);
        if (!seen.has(key)) {
            seen.set(key, { key, email });
        }
    }

    return [...seen.values()];
};

const view = (record: { email: string; reason: SuppressionReason; workflowId: string | null; createdAt: Date }): SuppressionView => ({
    email: record.email,
    reason: record.reason,
    workflowId: record.workflowId,
    createdAt: record.createdAt.toISOString()
});

const isForeignKeyViolation = (err: unknown): boolean => (err as { code?: string })?.code === '23503';

export const createSuppressionsService = (ctx: Context): SuppressionsService => {
    const keys: TokenKeys = unsubscribeKeys(ctx.secrets.encryptionKey);
    const base = publicBase(ctx.config);

    const open = async (token: string) => {
        const subject = openUnsubscribeToken(keys, token);
        // A deleted account has no list to add to: its links are as unknown as a made-up one.
        if (!subject || !(await findAccountById(ctx.db, subject.accountId))) {
            throw Boom.notFound('This unsubscribe link is not valid: it may have been changed or cut short. Open the link from the e-mail again.');
        }

        return subject;
    };

    const suppress = async (accountId: string, workflowId: string | null, emails: string[], reason: SuppressionReason): Promise<number> => {
        try {
            return await addSuppressions(ctx.db, accountId, entriesOf(emails), reason, workflowId);
        } catch (err) {
            // The account was deleted meanwhile: nothing to suppress for anyone.
            if (isForeignKeyViolation(err)) {
                return 0;
            }

            throw err;
        }
    };

    return {
        async list(accountId, query) {
            const page = pageOut(await listSuppressions(ctx.db, accountId, pageRequest(query)));
            return { items: page.items.map(view), next: page.next };
        },

        async add(accountId, emails) {
            const details = emails.flatMap((email, index) => {
                const problem = emailAddressProblem(email.trim());
                return problem === null ? [] : [{ path: `emails[${index}]`, message: `'${email.slice(0, 80)}': ${problem}` }];
            });
            if (details.length > 0) {
                const listed = details.slice(0, 5).map((d) => `${d.path} ${d.message}`).join('; ');
                throw badRequest(`${details.length} of ${emails.length} addresses are not e-mail addresses, and none was added: ${listed}`, details.slice(0, 100));
            }

            const entries = entriesOf(emails);
            const added = await addSuppressions(ctx.db, accountId, entries, 'manual', null);
            return { added, alreadyPresent: entries.length - added };
        },

        async remove(accountId, email) {
            if (!(await removeSuppression(ctx.db, accountId, suppressionKey(email)))) {
                throw Boom.notFound(`${email.trim().slice(0, 254)} is not on the suppression list (see GET /api/suppressions)`);
            }
        },

        async target(token) {
            const subject = await open(token);
            return { maskedEmail: maskEmail(subject.email), sender: ctx.config.mailFrom };
        },

        async unsubscribe(token) {
            const subject = await open(token);
            // A workflow deleted since the e-mail was sent changes nothing: the address still asked to leave.
            await suppress(subject.accountId, subject.workflowId, [subject.email], 'unsubscribed');
            ctx.log.info({ accountId: subject.accountId, workflowId: subject.workflowId }, 'a recipient unsubscribed');
        },

        suppress,

        consent: {
            suppressedAmong: (accountId, keys) => suppressedAmong(ctx.db, accountId, keys),
            unsubscribeUrl: (accountId, workflowId, to) => `${base}/u/${sealUnsubscribeToken(keys, { accountId, workflowId, email: to })}`,
            returnPath: (accountId, to) => returnPathFor(ctx.config, ctx.secrets.encryptionKey, accountId, to),
            async suppress(accountId, workflowId, email, reason) {
                await suppress(accountId, workflowId, [email], reason);
            }
        }
    };
};
