import Crypto from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

import Boom from '@hapi/boom';
import { type Row, typeCsvRow } from '@flowctl/engine';

import type { Context } from '../context.js';
import { createGoogleApi, type GoogleApi, type GoogleTokens } from '../google/api.js';
import { decrypt, encrypt } from '../secrets.js';
import { googleStore } from '../store/google.js';
import { loadingBytes } from '../run-memory.js';
import { CsvInspector, checkHeader, readCsvRows } from './csv.js';

const STATE_TTL_MS = 10 * 60 * 1000;
const CONNECT = 'GET /api/integrations/google/connect';
export const REVOKED = `Google access was revoked: link the account again (${CONNECT})`;
const SHEET = 'application/vnd.google-apps.spreadsheet';
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values']);

export interface GoogleStatus {
    connected: boolean;
    email?: string;
}

/** How a callback ended: the page the browser sees says which. */
export type LinkOutcome =
    | { linked: true; email: string }
    | { linked: false; reason: 'denied' | 'bad-state' | 'expired' | 'exchange-failed' | 'not-configured'; detail?: string };

export interface GoogleService {
    status(accountId: string): Promise<GoogleStatus>;
    /** The consent page address for this account; 503 when the server has no OAuth client. */
    connectUrl(accountId: string): Promise<string>;
    finishLink(query: { state?: string; code?: string; error?: string }): Promise<LinkOutcome>;
    /** Revokes at Google (best effort) and forgets the tokens. */
    disconnect(accountId: string): Promise<void>;
    /** The rows of a Drive CSV or Google Sheet, by the same rules as uploads. Failures are readable errors. */
    readDriveRows(accountId: string, fileId: string, sheet?: string): Promise<Row[]>;
}

/** Google's HTTP status in a googleapis error, or the OAuth error code of a failed refresh. */
const googleStatus = (err: unknown): number | undefined => (err as { status?: number; response?: { status?: number } }).response?.status;
const isRevoked = (err: unknown): boolean => {
    const data = (err as { response?: { data?: { error?: unknown } } }).response?.data;
    return data?.error === 'invalid_grant' || /invalid_grant/.test((err as Error).message ?? '');
};

/** Fails the stream once more than `max` bytes went through, so a huge file is never read whole. */
class ByteLimit extends Transform {
    #bytes = 0;
    constructor(
        readonly max: number,
        readonly what: string
    ) {
        super();
    }

    override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
        this.#bytes += chunk.length;
        if (this.#bytes > this.max) {
            callback(new Error(`${this.what} is larger than MAX_UPLOAD_BYTES (${this.max} bytes)`));
            return;
        }

        callback(null, chunk);
    }
}

/**
 * Counts what a Drive file would cost once loaded as it streams in (a Drive file has no recorded
 * size the run could be checked against beforehand), and stops it past RUN_MEMORY_MB.
 */
class MemoryLimit extends Transform {
    #lines = 0;
    #cells = 0;
    #bytes = 0;
    constructor(
        readonly maxMb: number,
        readonly what: string
    ) {
        super();
    }

    override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
        for (let i = 0; i < chunk.length; i++) {
            const byte = chunk[i];
            if (byte === 0x0a) {
                this.#lines += 1;
                this.#cells += 1;
            } else if (byte === 0x2c) {
                this.#cells += 1;
            }
        }

        this.#bytes += chunk.length;
        if (loadingBytes(this.#lines, this.#cells, this.#bytes) > this.maxMb * 1024 * 1024) {
            callback(
                new Error(
                    `${this.what} would need more memory than RUN_MEMORY_MB (${this.maxMb} MB) once loaded: over ${this.#lines.toLocaleString('en-US')} rows (${Math.ceil(this.#bytes / 1024 / 1024)} MB) read so far. ` +
                        'Split the file, have fewer nodes read its rows, or raise RUN_MEMORY_MB.'
                )
            );
            return;
        }

        callback(null, chunk);
    }
}

export const createGoogleService = (ctx: Context, api: GoogleApi = createGoogleApi(ctx.config.google)): GoogleService => {
    const store = googleStore(ctx.db);
    const key = ctx.secrets.encryptionKey;
    // States are signed with a key of their own, derived so that it signs nothing else.
    const stateKey = Crypto.createHmac('sha256', key).update('flowctl google oauth state').digest();
    const { clientId, clientSecret, redirectUri } = ctx.config.google;
    const sign = (text: string): string => Crypto.createHmac('sha256', stateKey).update(text).digest('base64url');

    const tokensOf = (link: { refreshTokenEnc: string; accessTokenEnc: string | null; accessExpiresAt: Date | null }): GoogleTokens => ({
        refreshToken: decrypt(key, link.refreshTokenEnc),
        accessToken: link.accessTokenEnc ? decrypt(key, link.accessTokenEnc) : null,
        expiresAt: link.accessExpiresAt
    });

    /** Turns a Drive or Sheets failure into the node error a user can act on. */
    const explain = async (accountId: string, fileId: string, err: unknown): Promise<Error> => {
        if (isRevoked(err)) {
            await store.deleteLink(accountId);
            return new Error(REVOKED);
        }

        const status = googleStatus(err);
        if (status === 404) {
            return new Error(`Google Drive file '${fileId}' was not found, or the linked Google account cannot see it`);
        }

        if (status === 401 || status === 403) {
            return new Error(`the linked Google account may not read Google Drive file '${fileId}': share it with that account`);
        }

        return new Error(`Google Drive file '${fileId}' could not be read: ${(err as Error).message}`);
    };

    return {
        async status(accountId) {
            const link = await store.findLink(accountId);
            return link ? { connected: true, email: link.email } : { connected: false };
        },
        async connectUrl(accountId) {
            if (!clientId || !clientSecret || !redirectUri) {
                throw Boom.serverUnavailable(
                    'Google is not configured on this server: set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI (see docs/configuration.md, "Google Drive")'
                );
            }

            const nonce = Crypto.randomBytes(24).toString('base64url');
            const expiresAt = Date.now() + STATE_TTL_MS;
            const signed = `${nonce}.${accountId}.${expiresAt}`;
            const state = `${signed}.${sign(signed)}`;
            const { url, codeVerifier } = await api.consentUrl(state);
            await store.insertState(nonce, { accountId, codeVerifierEnc: encrypt(key, codeVerifier) }, new Date(expiresAt));
            return url;
        },
        async finishLink({ state, code, error }) {
            const parts = (state ?? '').split('.');
            if (parts.length !== 4) {
                return { linked: false, reason: 'bad-state' };
            }

            const [nonce, accountId, expiry, signature] = parts as [string, string, string, string];
            const expected = Buffer.from(sign(`${nonce}.${accountId}.${expiry}`));
            const given = Buffer.from(signature);
            if (given.length !== expected.length || !Crypto.timingSafeEqual(given, expected)) {
                return { linked: false, reason: 'bad-state' };
            }

            if (Number(expiry) < Date.now()) {
                return { linked: false, reason: 'expired' };
            }

            // Taken (deleted) before anything else: a state works once, whatever happens next.
            const pending = await store.takeState(nonce);
            if (!pending || pending.accountId !== accountId) {
                return { linked: false, reason: 'expired' };
            }

            if (error) {
                return { linked: false, reason: 'denied', detail: error };
            }

            if (!code) {
                return { linked: false, reason: 'bad-state' };
            }

            let tokens: GoogleTokens;
            let email: string;
            try {
                tokens = await api.exchange(code, decrypt(key, pending.codeVerifierEnc));
                if (!tokens.refreshToken || !tokens.accessToken) {
                    return { linked: false, reason: 'exchange-failed', detail: 'Google returned no refresh token' };
                }

                email = await api.email(tokens.accessToken);
            } catch (err) {
                ctx.log.warn({ status: googleStatus(err), accountId }, 'Google code exchange failed');
                return { linked: false, reason: 'exchange-failed' };
            }

            await store.saveLink({
                accountId,
                email,
                refreshTokenEnc: encrypt(key, tokens.refreshToken),
                accessTokenEnc: encrypt(key, tokens.accessToken),
                accessExpiresAt: tokens.expiresAt
            });
            return { linked: true, email };
        },
        async disconnect(accountId) {
            const link = await store.findLink(accountId);
            if (!link) {
                return;
            }

            await store.deleteLink(accountId);
            try {
                await api.revoke(decrypt(key, link.refreshTokenEnc));
            } catch (err) {
                // The tokens are forgotten either way; Google drops unused ones on its own.
                ctx.log.warn({ status: googleStatus(err), accountId }, 'could not revoke the Google token');
            }
        },
        async readDriveRows(accountId, fileId, sheet) {
            const link = await store.findLink(accountId);
            if (!link) {
                throw new Error(`no Google account is linked to this account: link one with ${CONNECT}`);
            }

            const max = ctx.config.maxUploadBytes;
            const session = await api.session(tokensOf(link), (fresh) => {
                if (fresh.accessToken) {
                    store
                        .saveAccessToken(accountId, encrypt(key, fresh.accessToken), fresh.expiresAt)
                        .catch((err: Error) => ctx.log.warn({ err: err.message, accountId }, 'could not keep a refreshed Google access token'));
                }
            });

            try {
                const file = await session.file(fileId);
                const what = `Google Drive file '${file.name}'`;
                if (file.mimeType === SHEET) {
                    if (sheet !== undefined) {
                        return sheetRows(await session.sheetValues(fileId, sheet), max, `sheet '${sheet}' of ${what}`);
                    }

                    return await readCsvRows(await session.exportCsv(fileId), null, new ByteLimit(max, what), new MemoryLimit(ctx.config.runMemoryMb, what), new CsvInspector());
                }

                if (sheet !== undefined) {
                    throw new Error(`${what} is not a Google Sheet, so it has no sheet '${sheet}': remove 'sheet'`);
                }

                if (!CSV_TYPES.has(file.mimeType) && !/\.csv$/i.test(file.name)) {
                    throw new Error(`${what} is ${file.mimeType || 'of an unknown type'}: a DATA_SOURCE reads CSV files and Google Sheets only`);
                }

                if (file.size !== null && file.size > max) {
                    throw new Error(`${what} is larger than MAX_UPLOAD_BYTES (${file.size} > ${max} bytes)`);
                }

                return await readCsvRows(await session.download(fileId), null, new ByteLimit(max, what), new MemoryLimit(ctx.config.runMemoryMb, what), new CsvInspector());
            } catch (err) {
                if (Boom.isBoom(err)) {
                    // The CSV rules of uploads (UTF-8, a header of unique names, one field per column).
                    throw new Error(`Google Drive file '${fileId}': ${err.message}`);
                }

                if (googleStatus(err) === undefined && !isRevoked(err)) {
                    throw err;
                }

                throw await explain(accountId, fileId, err);
            }
        }
    };
};

/** A sheet's formatted cells, read by the same header and typing rules as a CSV. */
const sheetRows = (values: string[][], max: number, what: string): Row[] => {
    const [head, ...body] = values;
    if (!head) {
        throw new Error(`${what} is empty: its first row must name the columns`);
    }

    const columns = checkHeader(head);
    let bytes = 0;
    return body
        .filter((cells) => cells.some((cell) => cell.trim() !== ''))
        .map((cells) => {
            bytes += cells.reduce((sum, cell) => sum + Buffer.byteLength(cell) + 1, 0);
            if (bytes > max) {
                throw new Error(`${what} is larger than MAX_UPLOAD_BYTES (${max} bytes)`);
            }

            return typeCsvRow(columns, cells);
        });
};
