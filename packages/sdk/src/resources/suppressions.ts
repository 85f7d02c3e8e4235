import type { Flowctl, RequestOptions } from '../client.js';
import type { PagedList } from '../pagination.js';
import type { Suppression, SuppressionsAdded } from '../types.js';

/** The account's suppression list: addresses no OUTPUT node mails. `client.suppressions`. */
export class Suppressions {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /** Newest first: unsubscribed, bounced, complained, or added by hand (manual). */
    list(options?: RequestOptions): PagedList<Suppression> {
        return this.#client.list<Suppression>({ ...options, method: 'GET', path: '/api/suppressions' });
    }

    /**
     * Adds addresses (reason `manual`), compared trimmed and case-insensitively; at most 5,000 a call.
     * All or nothing: one address that is not an e-mail address is a 400 (`BadRequestError`) listing each.
     */
    async add(emails: string[], options?: RequestOptions): Promise<SuppressionsAdded> {
        return (await this.#client.request({ ...options, method: 'POST', path: '/api/suppressions', json: { emails } })).body as SuppressionsAdded;
    }

    /** Removes an address: OUTPUT nodes mail it again. 404 (`NotFoundError`) when it is not on the list. */
    async remove(email: string, options?: RequestOptions): Promise<void> {
        await this.#client.request({ ...options, method: 'DELETE', path: `/api/suppressions/${encodeURIComponent(email.trim())}` });
    }
}
