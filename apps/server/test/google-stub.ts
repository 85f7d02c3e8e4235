import Crypto from 'node:crypto';
import Http from 'node:http';
import Net, { type AddressInfo } from 'node:net';


/**
 * A local stand-in for Google: the consent page, token, revocation, userinfo, Drive v3 and Sheets v4
 * endpoints, strict the way Google is (PKCE S256 checked, codes once, redirect URI exact, revoked
 * refresh tokens answer invalid_grant). The server is pointed at it with GOOGLE_AUTH_URL,
 * GOOGLE_TOKEN_URL, GOOGLE_REVOKE_URL and GOOGLE_API_URL.
 */

export interface StubFile {
    name: string;
    mimeType: string;
    /** CSV text of a plain file; for a Sheet, its sheets by name (the first is exported). */
    content?: string;
    sheets?: Record<string, string[][]>;
    /** Only this Google account may read it. */
    owner?: string;
}

export interface GoogleStub {
    url: string;
    clientId: string;
    clientSecret: string;
    /** The Google account that consents on the consent page. */
    email: string;
    files: Map<string, StubFile>;
    /** Every access token issued so far stops working, as when they expire. */
    expireAccessTokens(): void;
    /** Every refresh token is revoked (the user removed the app's access at Google). */
    revokeRefreshTokens(): void;
    /** Tokens revoked through the revocation endpoint. */
    revoked: string[];
    /** Refresh-token grants answered. */
    refreshes: number;
    /** Every code and token the stand-in handed out. */
    issued: string[];
    /** What the consent page would do: follows `consentUrl` and returns where Google sends the browser back. */
    consent(consentUrl: string, answer?: 'allow' | 'deny'): string;
    close(): Promise<void>;
}

interface PendingCode {
    clientId: string;
    redirectUri: string;
    challenge: string;
    email: string;
}

const sheetCsv = (rows: string[][]): string =>
    rows.map((row) => row.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\r\n');

export const startGoogleStub = async (options: { email?: string } = {}): Promise<GoogleStub> => {
    const codes = new Map<string, PendingCode>();
    const accessTokens = new Map<string, string>();
    const refreshTokens = new Map<string, string>();
    const files = new Map<string, StubFile>();
    const clientId = 'stub-client.apps.googleusercontent.com';
    const clientSecret = 'stub-secret';

    const mint = (kind: string) => {
        const value = `${kind}-${Crypto.randomBytes(12).toString('hex')}`;
        stub.issued.push(value);
        return value;
    };

    const json = (res: Http.ServerResponse, status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };

    const googleError = (res: Http.ServerResponse, status: number, message: string) =>
        json(res, status, { error: { code: status, message, errors: [{ message, reason: status === 404 ? 'notFound' : 'forbidden' }] } });

    const readBody = async (req: Http.IncomingMessage): Promise<URLSearchParams> => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) {
            chunks.push(chunk as Buffer);
        }

        return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    };

    /** Checks a consent request as Google does and answers where the browser goes next. */
    const consent = (consentUrl: string, answer: 'allow' | 'deny' = 'allow'): string => {
        const query = new URL(consentUrl).searchParams;
        const redirectUri = query.get('redirect_uri') ?? '';
        const state = query.get('state') ?? '';
        const problems = [
            query.get('client_id') !== clientId && 'client_id',
            query.get('response_type') !== 'code' && 'response_type',
            query.get('access_type') !== 'offline' && 'access_type',
            query.get('prompt') !== 'consent' && 'prompt',
            query.get('scope') !== 'openid email https://www.googleapis.com/auth/drive.readonly' && 'scope',
            query.get('code_challenge_method') !== 'S256' && 'code_challenge_method',
            !query.get('code_challenge') && 'code_challenge',
            !state && 'state',
            !redirectUri && 'redirect_uri'
        ].filter(Boolean);
        if (problems.length > 0) {
            throw new Error(`bad consent request: ${problems.join(', ')}`);
        }

        const back = new URL(redirectUri);
        back.searchParams.set('state', state);
        if (answer === 'deny') {
            back.searchParams.set('error', 'access_denied');
        } else {
            const code = mint('code');
            codes.set(code, { clientId, redirectUri, challenge: query.get('code_challenge')!, email: stub.email });
            back.searchParams.set('code', code);
            back.searchParams.set('scope', query.get('scope')!);
        }

        return back.toString();
    };

    const token = async (req: Http.IncomingMessage, res: Http.ServerResponse) => {
        const form = await readBody(req);
        // googleapis sends the client credentials in the body.
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
            return json(res, 401, { error: 'invalid_client' });
        }

        const issue = (email: string, refreshToken?: string) => {
            const accessToken = mint('access');
            accessTokens.set(accessToken, email);
            json(res, 200, {
                access_token: accessToken,
                expires_in: 3599,
                token_type: 'Bearer',
                scope: 'openid email https://www.googleapis.com/auth/drive.readonly',
                ...(refreshToken ? { refresh_token: refreshToken } : {})
            });
        };

        if (form.get('grant_type') === 'authorization_code') {
            const pending = codes.get(form.get('code') ?? '');
            codes.delete(form.get('code') ?? '');
            const verifier = form.get('code_verifier') ?? '';
            const challenge = Crypto.createHash('sha256').update(verifier).digest('base64url');
            if (!pending || pending.redirectUri !== form.get('redirect_uri') || pending.challenge !== challenge) {
                return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
            }

            const refreshToken = mint('refresh');
            refreshTokens.set(refreshToken, pending.email);
            return issue(pending.email, refreshToken);
        }

        if (form.get('grant_type') === 'refresh_token') {
            const email = refreshTokens.get(form.get('refresh_token') ?? '');
            if (!email) {
                return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
            }

            stub.refreshes += 1;
            return issue(email);
        }

        return json(res, 400, { error: 'unsupported_grant_type' });
    };

    /** The Google account of the request's bearer token, or null after answering 401. */
    const caller = (req: Http.IncomingMessage, res: Http.ServerResponse): string | null => {
        const email = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
        if (!email) {
            json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
            return null;
        }

        return email;
    };

    const api = (req: Http.IncomingMessage, res: Http.ServerResponse, url: URL) => {
        const email = caller(req, res);
        if (!email) {
            return;
        }

        if (url.pathname === '/oauth2/v2/userinfo') {
            return json(res, 200, { id: '1234', email, verified_email: true });
        }

        const drive = /^\/drive\/v3\/files\/([^/]+)(\/export)?$/.exec(url.pathname);
        const values = /^\/v4\/spreadsheets\/([^/]+)\/values\/(.+)$/.exec(url.pathname);
        const fileId = decodeURIComponent((drive ?? values)?.[1] ?? '');
        const file = files.get(fileId);
        if (!file) {
            return googleError(res, 404, `File not found: ${fileId}.`);
        }

        if (file.owner && file.owner !== email) {
            return googleError(res, 403, 'The user does not have sufficient permissions for this file.');
        }

        if (values) {
            const range = decodeURIComponent(values[2]!).replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
            const sheet = file.sheets?.[range];
            return sheet ? json(res, 200, { range, majorDimension: 'ROWS', values: sheet }) : json(res, 400, { error: { code: 400, message: `Unable to parse range: ${range}` } });
        }

        if (drive?.[2]) {
            const first = Object.values(file.sheets ?? {})[0];
            return first ? res.writeHead(200, { 'content-type': 'text/csv' }).end(sheetCsv(first)) : googleError(res, 403, 'Export only supports Docs Editors files.');
        }

        if (url.searchParams.get('alt') === 'media') {
            return file.sheets ? googleError(res, 403, 'Only files with binary content can be downloaded.') : res.writeHead(200, { 'content-type': file.mimeType }).end(file.content ?? '');
        }

        const size = file.content === undefined ? {} : { size: String(Buffer.byteLength(file.content)) };
        return json(res, 200, { name: file.name, mimeType: file.mimeType, ...size });
    };

    const consentPage = (res: Http.ServerResponse, url: URL) => {
        const allow = consent(url.toString(), 'allow');
        const deny = consent(url.toString(), 'deny');
        res.writeHead(200, { 'content-type': 'text/html' }).end(
            `<!doctype html><title>Sign in - Google Accounts (stand-in)</title><p>flowctl wants to see your Google Drive files (${stub.email}).</p>` +
                `<a id="allow" href="${allow.replace(/&/g, '&amp;')}">Allow</a> <a id="deny" href="${deny.replace(/&/g, '&amp;')}">Cancel</a>`
        );
    };

    const server = Http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://stub');
        const route = async () => {
            if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') return consentPage(res, url);
            if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
            if (req.method === 'POST' && url.pathname === '/revoke') {
                const revoked = url.searchParams.get('token') ?? (await readBody(req)).get('token') ?? '';
                stub.revoked.push(revoked);
                refreshTokens.delete(revoked);
                accessTokens.delete(revoked);
                return json(res, 200, {});
            }
            if (req.method === 'GET') return api(req, res, url);
            return json(res, 404, { error: 'not found' });
        };
        route().catch((err: Error) => json(res, 500, { error: err.message }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const stub: GoogleStub = {
        url: base,
        clientId,
        clientSecret,
        email: options.email ?? 'someone@gmail.test',
        files,
        revoked: [],
        refreshes: 0,
        issued: [],
        expireAccessTokens: () => accessTokens.clear(),
        revokeRefreshTokens: () => refreshTokens.clear(),
        consent,
        close: () => new Promise<void>((resolve) => server.close(() => resolve()))
    };
    return stub;
};

/** The server's configuration that points it at the stand-in. */
export const googleConfig = (stub: GoogleStub, redirectUri: string) => ({
    clientId: stub.clientId,
    clientSecret: stub.clientSecret,
    redirectUri,
    authUrl: `${stub.url}/o/oauth2/v2/auth`,
    tokenUrl: `${stub.url}/token`,
    revokeUrl: `${stub.url}/revoke`,
    apiUrl: `${stub.url}/`
});

/** A port free now, so the redirect URI can be known before the server starts. */
export const freePort = async (): Promise<number> => {
    const server = Net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
};
