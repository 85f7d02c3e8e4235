import { Readable } from 'node:stream';

import type { OAuth2Client } from 'googleapis-common';

import type { GoogleConfig } from '../config.js';

// Only the three APIs used are loaded, and only once a Google feature is used: the googleapis index
// loads every API Google has (seconds of start-up).
const load = async () => {
    const [common, drive, sheets, oauth2] = await Promise.all([
        import('googleapis-common'),
        import('googleapis/build/src/apis/drive/v3.js'),
        import('googleapis/build/src/apis/sheets/v4.js'),
        import('googleapis/build/src/apis/oauth2/v2.js')
    ]);
    return { OAuth2Client: common.OAuth2Client, Drive: drive.drive_v3.Drive, Sheets: sheets.sheets_v4.Sheets, Oauth2: oauth2.oauth2_v2.Oauth2 };
};

let apis: ReturnType<typeof load> | null = null;
const googleApis = () => {
    apis ??= load();
    return apis;
};

export const SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/drive.readonly'];

export interface GoogleTokens {
    accessToken: string | null;
    refreshToken: string | null;
    expiresAt: Date | null;
}

export interface DriveFile {
    name: string;
    mimeType: string;
    /** Bytes; Google-native files (Sheets) have none. */
    size: number | null;
}

export interface GoogleApi {
    /** The consent page address, with PKCE; returns the verifier to keep for the exchange. */
    consentUrl(state: string): Promise<{ url: string; codeVerifier: string }>;
    exchange(code: string, codeVerifier: string): Promise<GoogleTokens>;
    /** The Google account's address, read with a fresh access token. */
    email(accessToken: string): Promise<string>;
    revoke(token: string): Promise<void>;
    /** Drive and Sheets calls for one link; `onTokens` keeps access tokens the client refreshed. */
    session(tokens: GoogleTokens, onTokens: (tokens: GoogleTokens) => void): Promise<DriveSession>;
}

export interface DriveSession {
    file(fileId: string): Promise<DriveFile>;
    download(fileId: string): Promise<Readable>;
    /** The first sheet as CSV (Drive's export). */
    exportCsv(fileId: string): Promise<Readable>;
    /** One named sheet's cells, formatted as shown in the sheet. */
    sheetValues(fileId: string, sheet: string): Promise<string[][]>;
}

const toNodeStream = (body: unknown): Readable =>
    body instanceof Readable ? body : Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);

export const createGoogleApi = (config: GoogleConfig): GoogleApi => {
    const rootUrl = config.apiUrl ?? undefined;

    const oauthClient = async (): Promise<OAuth2Client> => {
        const { OAuth2Client: Client } = await googleApis();
        return new Client({
            clientId: config.clientId ?? undefined,
            clientSecret: config.clientSecret ?? undefined,
            redirectUri: config.redirectUri ?? undefined,
            endpoints: { oauth2AuthBaseUrl: config.authUrl, oauth2TokenUrl: config.tokenUrl, oauth2RevokeUrl: config.revokeUrl },
            // A token Google rejects (revoked or expired early) is refreshed once and the call retried.
            forceRefreshOnFailure: true
        });
    };

    return {
        async consentUrl(state) {
            const client = await oauthClient();
            const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
            const url = client.generateAuthUrl({
                access_type: 'offline',
                prompt: 'consent',
                response_type: 'code',
                scope: SCOPES,
                state,
                code_challenge: codeChallenge,
                // biome-ignore lint/suspicious/noExplicitAny: the enum lives in google-auth-library, a transitive dependency
                code_challenge_method: 'S256' as any
            });
            return { url, codeVerifier };
        },
        async exchange(code, codeVerifier) {
            const client = await oauthClient();
            const { tokens } = await client.getToken({ code, codeVerifier });
            return {
                accessToken: tokens.access_token ?? null,
                refreshToken: tokens.refresh_token ?? null,
                expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null
            };
        },
        async email(accessToken) {
            const { Oauth2 } = await googleApis();
            const client = await oauthClient();
            client.setCredentials({ access_token: accessToken });
            const { data } = await new Oauth2({ auth: client, rootUrl }).userinfo.get();
            if (!data.email) {
                throw new Error('Google did not share the account e-mail address (the email scope was not granted)');
            }

            return data.email;
        },
        async revoke(token) {
            const client = await oauthClient();
            await client.revokeToken(token);
        },
        async session(tokens, onTokens) {
            const { Drive, Sheets } = await googleApis();
            const client = await oauthClient();
            client.setCredentials({
                access_token: tokens.accessToken,
                refresh_token: tokens.refreshToken,
                expiry_date: tokens.expiresAt?.getTime() ?? null
            });
            client.on('tokens', (fresh) =>
                onTokens({
                    accessToken: fresh.access_token ?? null,
                    refreshToken: fresh.refresh_token ?? null,
                    expiresAt: fresh.expiry_date ? new Date(fresh.expiry_date) : null
                })
            );
            const drive = new Drive({ auth: client, rootUrl });
            const sheets = new Sheets({ auth: client, rootUrl });

            return {
                async file(fileId) {
                    const { data } = await drive.files.get({ fileId, fields: 'name,mimeType,size', supportsAllDrives: true });
                    return { name: data.name ?? fileId, mimeType: data.mimeType ?? '', size: data.size ? Number(data.size) : null };
                },
                async download(fileId) {
                    const res = await drive.files.get({ fileId, alt: 'media', supportsAllDrives: true }, { responseType: 'stream' });
                    return toNodeStream(res.data);
                },
                async exportCsv(fileId) {
                    const res = await drive.files.export({ fileId, mimeType: 'text/csv' }, { responseType: 'stream' });
                    return toNodeStream(res.data);
                },
                async sheetValues(fileId, sheet) {
                    // A sheet name is quoted so that names with spaces or '!' are read as one name.
                    const range = `'${sheet.replace(/'/g, "''")}'`;
                    const { data } = await sheets.spreadsheets.values.get({ spreadsheetId: fileId, range, valueRenderOption: 'FORMATTED_VALUE' });
                    return (data.values ?? []).map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
                }
            };
        }
    };
};
