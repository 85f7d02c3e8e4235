// Ordered schema changes. Never edit one that has shipped: add the next.
import { sql as initial } from './001-initial.js';

export interface Migration {
    id: number;
    name: string;
    sql: string;
}

export const migrations: Migration[] = [{ id: 1, name: '001-initial', sql: initial }];
