// An empty API token (`FLOWCTL_TOKEN=$(a command that failed)`) is refused when the client is made, saying
// it is empty and how to make one: sent, it was a malformed header, and the server's 401 ("Bad HTTP
// authentication header format") did not say why.
import { describe, expect, it } from 'vitest';

import { Flowctl } from '../src/index.js';

describe('new Flowctl({ apiToken })', () => {
    it.each([[''], ['  '], ['\n']])('refuses the empty token %j, naming flowctl tokens create', (apiToken) => {
        expect(() => new Flowctl({ baseUrl: 'http://127.0.0.1:9', apiToken })).toThrow(/apiToken is empty[\s\S]*`flowctl tokens create`/);
    });

    it('takes a token, and no token', () => {
        expect(new Flowctl({ baseUrl: 'http://127.0.0.1:9', apiToken: 'flc_x' }).session.apiToken).toBe('flc_x');
        expect(new Flowctl({ baseUrl: 'http://127.0.0.1:9' }).session.apiToken).toBeUndefined();
    });
});
