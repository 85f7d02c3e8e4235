import type { Queryable } from './db.js';
import { preparedOne } from './prepared.js';

/** The resources a path can name, and the table each lives in (a fixed list: never from input). */
export type Owned = 'workflow' | 'run' | 'upload' | 'apiToken';

const TABLES: Record<Owned, string> = { workflow: 'workflows', run: 'runs', upload: 'uploads', apiToken: 'api_tokens' };

/** Whether the account has a resource of that kind with that id: one primary-key lookup. */
export const owns = async (db: Queryable, kind: Owned, accountId: string, id: string): Promise<boolean> =>
    (await preparedOne(db, `flowctl_owns_${kind}`, `SELECT 1 AS ok FROM ${TABLES[kind]} WHERE id = $1 AND account_id = $2`, [id, accountId])) !== null;
