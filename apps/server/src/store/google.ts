import type { Queryable } from './db.js';

/** An account's Google link; the tokens stay sealed here and are opened by services/google.ts. */
export interface GoogleLinkRecord {
    accountId: string;
    email: string;
    refreshTokenEnc: string;
    accessTokenEnc: string | null;
    accessExpiresAt: Date | null;
}

export interface OAuthStateRecord {
    accountId: string;
    codeVerifierEnc: string;
}

interface LinkRow {
    account_id: string;
    email: string;
    refresh_token_enc: string;
    access_token_enc: string | null;
    access_expires_at: Date | null;
}

export interface GoogleStore {
    findLink(accountId: string): Promise<GoogleLinkRecord | null>;
    /** Links the account, replacing an earlier link. */
    saveLink(link: GoogleLinkRecord): Promise<void>;
    /** Keeps a refreshed access token; a no-op when the link was removed meanwhile. */
    saveAccessToken(accountId: string, accessTokenEnc: string, expiresAt: Date | null): Promise<void>;
    /** False when there was no link. */
    deleteLink(accountId: string): Promise<boolean>;
    insertState(nonce: string, state: OAuthStateRecord, expiresAt: Date): Promise<void>;
    /** Removes and returns a state that has not expired: each state works once. */
    takeState(nonce: string): Promise<OAuthStateRecord | null>;
}

export const googleStore = (db: Queryable): GoogleStore => ({
    async findLink(accountId) {
        const row = await db.one<LinkRow>(
            'SELECT account_id, email, refresh_token_enc, access_token_enc, access_expires_at FROM google_links WHERE account_id = $1',
            [accountId]
        );
        return row
            ? {
                  accountId: row.account_id,
                  email: row.email,
                  refreshTokenEnc: row.refresh_token_enc,
                  accessTokenEnc: row.access_token_enc,
                  accessExpiresAt: row.access_expires_at
              }
            : null;
    },
    async saveLink(link) {
        await db.query(
            `INSERT INTO google_links (account_id, email, refresh_token_enc, access_token_enc, access_expires_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (account_id) DO UPDATE SET email = $2, refresh_token_enc = $3, access_token_enc = $4,
                 access_expires_at = $5, linked_at = now(), updated_at = now()`,
            [link.accountId, link.email, link.refreshTokenEnc, link.accessTokenEnc, link.accessExpiresAt]
        );
    },
    async saveAccessToken(accountId, accessTokenEnc, expiresAt) {
        await db.query('UPDATE google_links SET access_token_enc = $2, access_expires_at = $3, updated_at = now() WHERE account_id = $1', [
            accountId,
            accessTokenEnc,
            expiresAt
        ]);
    },
    async deleteLink(accountId) {
        const rows = await db.query('DELETE FROM google_links WHERE account_id = $1 RETURNING account_id', [accountId]);
        return rows.length > 0;
    },
    async insertState(nonce, state, expiresAt) {
        // Expired states of abandoned connects go as new ones arrive; there is nothing else to clean.
        await db.query('DELETE FROM google_oauth_states WHERE expires_at < now()');
        await db.query('INSERT INTO google_oauth_states (nonce, account_id, code_verifier_enc, expires_at) VALUES ($1, $2, $3, $4)', [
            nonce,
            state.accountId,
            state.codeVerifierEnc,
            expiresAt
        ]);
    },
    async takeState(nonce) {
        const row = await db.one<{ account_id: string; code_verifier_enc: string }>(
            'DELETE FROM google_oauth_states WHERE nonce = $1 AND expires_at > now() RETURNING account_id, code_verifier_enc',
            [nonce]
        );
        return row ? { accountId: row.account_id, codeVerifierEnc: row.code_verifier_enc } : null;
    }
});
