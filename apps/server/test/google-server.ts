import type { Logger } from 'pino';

import type { Config } from '../src/config.js';
import { freePort, type GoogleStub, googleConfig } from './google-stub.js';
import { startTestServer, type TestServer } from './harness.js';

/** A test server whose Google endpoints are the stand-in's. */
export const startWithGoogle = async (stub: GoogleStub, config: Partial<Config> = {}, logger?: Logger): Promise<TestServer> => {
    const port = await freePort();
    const google = googleConfig(stub, `http://127.0.0.1:${port}/api/integrations/google/callback`);
    return startTestServer({ config: { ...config, port, google }, ...(logger ? { logger } : {}) });
};

