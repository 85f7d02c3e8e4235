import type { Logger } from 'pino';

import type { Config } from './config.js';
import type { Mailer } from './mail/mailer.js';
import type { Secrets } from './secrets.js';
import type { Db } from './store/db.js';

/** What every service is built from. Created once per process by createApp(). */
export interface Context {
    config: Config;
    db: Db;
    secrets: Secrets;
    mailer: Mailer;
    log: Logger;
}
