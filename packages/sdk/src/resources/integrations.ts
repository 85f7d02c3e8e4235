import type { Flowctl, RequestOptions } from '../client.js';
import type { GoogleStatus } from '../types.js';

/** The Google account link: `client.integrations.google`. */
export class GoogleIntegration {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /** Whether a Google account is linked, and which. */
    async status(options?: RequestOptions): Promise<GoogleStatus> {
        return (await this.#client.request({ ...options, method: 'GET', path: '/api/integrations/google/status' })).body as GoogleStatus;
    }

    /** The consent-page address to open in a browser to link a Google account. */
    async connectUrl(options?: RequestOptions): Promise<string> {
        const res = await this.#client.request({ ...options, method: 'GET', path: '/api/integrations/google/connect', query: { format: 'json' } });
        return (res.body as { url: string }).url;
    }

    /** Unlinks the Google account. */
    async disconnect(options?: RequestOptions): Promise<void> {
        await this.#client.request({ ...options, method: 'DELETE', path: '/api/integrations/google' });
    }
}

/** `client.integrations`. */
export class Integrations {
    readonly google: GoogleIntegration;

    constructor(client: Flowctl) {
        this.google = new GoogleIntegration(client);
    }
}
