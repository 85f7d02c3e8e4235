import type { TokenPair } from './types.js';

/** Called with every new token pair (log-in, verification, refresh) so the caller can persist it. */
export type OnTokens = (pair: TokenPair) => void | Promise<void>;

// Refresh a little before the server would refuse the token, for clock skew and time in flight.
const EXPIRY_MARGIN_MS = 10_000;

/** The `exp` of a JWT in ms, or undefined when the token is not a JWT with one (e.g. an API token). */
const expiryOf = (token: string): number | undefined => {
    const payload = token.split('.')[1];
    if (!payload) {
        return undefined;
    }

    try {
        const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
        return typeof exp === 'number' ? exp * 1000 : undefined;
    } catch {
        return undefined;
    }
};

/**
 * The credentials of one client: a personal API token (sent as is, never refreshed), or an access token
 * with the refresh token that renews it. Renewal is single-flight: every request that finds the access
 * token expired (or refused) waits for the same refresh.
 */
export class Session {
    readonly apiToken: string | undefined;
    accessToken: string | undefined;
    refreshToken: string | undefined;
    readonly #onTokens: OnTokens | undefined;
    readonly #exchange: (refreshToken: string) => Promise<TokenPair>;
    #refreshing: Promise<string> | null = null;

    constructor(
        options: { apiToken?: string | undefined; accessToken?: string | undefined; refreshToken?: string | undefined; onTokens?: OnTokens | undefined },
        /** Exchanges a refresh token for a new pair and adopts it (store()). */
        exchange: (refreshToken: string) => Promise<TokenPair>
    ) {
        this.apiToken = options.apiToken;
        this.accessToken = options.accessToken;
        this.refreshToken = options.refreshToken;
        this.#onTokens = options.onTokens;
        this.#exchange = exchange;
    }

    get canRefresh(): boolean {
        return this.apiToken === undefined && this.refreshToken !== undefined;
    }

    /** The bearer token to send now, refreshed first when it has expired and a refresh token is known. */
    async bearer(): Promise<string | undefined> {
        if (this.apiToken !== undefined) {
            return this.apiToken;
        }

        const token = this.accessToken;
        if (token !== undefined && this.canRefresh) {
            const expiry = expiryOf(token);
            if (expiry !== undefined && expiry - EXPIRY_MARGIN_MS <= Date.now()) {
                return this.renew(token);
            }
        }

        return token;
    }

    /**
     * A fresh access token in place of `rejected`: if another request already replaced it, that one;
     * otherwise one refresh, shared by everyone who asks while it is under way.
     */
    renew(rejected: string | undefined): Promise<string> {
        if (this.#refreshing) {
            return this.#refreshing;
        }

        if (this.accessToken !== undefined && this.accessToken !== rejected) {
            return Promise.resolve(this.accessToken);
        }

        const refreshToken = this.refreshToken!;
        // The exchange (auth.refresh) adopts the new pair itself.
        this.#refreshing = this.#exchange(refreshToken)
            .then((pair) => pair.accessToken)
            .finally(() => {
                this.#refreshing = null;
            });
        return this.#refreshing;
    }

    /** Adopts a new pair and hands it to `onTokens`. */
    async store(pair: TokenPair): Promise<void> {
        this.accessToken = pair.accessToken;
        this.refreshToken = pair.refreshToken;
        await this.#onTokens?.(pair);
    }

    clear(): void {
        this.accessToken = undefined;
        this.refreshToken = undefined;
    }
}
