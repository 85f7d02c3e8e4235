import type { Flowctl, RequestOptions } from '../client.js';
import type { PagedList } from '../pagination.js';
import type { ApiToken, ApiTokenCreated, ApiTokenCreateParams, Settings, SettingsUpdate } from '../types.js';

/** `client.account.settings`. */
export class AccountSettings {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /** The settings; the AI key only as set or not, with its last four characters. */
    async get(options?: RequestOptions): Promise<Settings> {
        return (await this.#client.request({ ...options, method: 'GET', path: '/api/account/settings' })).body as Settings;
    }

    /** Changes settings: fields left out keep their value, `null` clears one. Returns the settings as `get()` shows them. */
    async update(change: SettingsUpdate, options?: RequestOptions): Promise<Settings> {
        return (await this.#client.request({ ...options, method: 'PUT', path: '/api/account/settings', json: change })).body as Settings;
    }
}

/** Personal API tokens for programs and CI: `client.account.tokens`. */
export class AccountTokens {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /** Creates a token. Its secret (`token`, `flc_…`) is in this answer only: store it now. */
    async create(params: ApiTokenCreateParams, options?: RequestOptions): Promise<ApiTokenCreated> {
        return (await this.#client.request({ ...options, method: 'POST', path: '/api/account/tokens', json: params })).body as ApiTokenCreated;
    }

    /** The account's tokens (never their secrets). */
    list(options?: RequestOptions): PagedList<ApiToken> {
        return this.#client.list<ApiToken>({ ...options, method: 'GET', path: '/api/account/tokens' });
    }

    /** Revokes a token at once. */
    async revoke(tokenId: string, options?: RequestOptions): Promise<void> {
        await this.#client.request({ ...options, method: 'DELETE', path: `/api/account/tokens/${encodeURIComponent(tokenId)}` });
    }
}

/** `client.account`. */
export class Account {
    readonly settings: AccountSettings;
    readonly tokens: AccountTokens;

    constructor(client: Flowctl) {
        this.settings = new AccountSettings(client);
        this.tokens = new AccountTokens(client);
    }
}
