import Fs from 'node:fs/promises';
import Os from 'node:os';
import Path from 'node:path';

import { createApp, loadConfig } from '@flowctl/server';
import Pino from 'pino';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
    export interface ProvidedContext {
        pgTemplate: string;
    }
}

/** initdb costs seconds: once per test run; each suite's server copies the migrated data directory. */
export default async function setup(project: TestProject) {
    const root = await Fs.mkdtemp(Path.join(Os.tmpdir(), 'flowctl-cli-template-'));
    const app = await createApp(loadConfig({ FLOWCTL_DATA_DIR: root, PORT: '0' }, { role: 'worker' }), { logger: Pino({ level: 'silent' }) });
    await app.stop();
    project.provide('pgTemplate', Path.join(root, 'pg'));

    return async () => {
        await Fs.rm(root, { recursive: true, force: true });
    };
}
