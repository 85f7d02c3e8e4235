import { configDefaults, defineConfig } from 'vitest/config';

import { SlowFirst } from '../../.ci/slow-first.js';
import { TEST_EXEC_ARGV } from '../../.ci/test-node-flags.js';

// The SDK is tested against a real server (apps/server, from source) on embedded PGlite; with
// TEST_DATABASE_URL, again on real PostgreSQL. The server's global setup prepares the template store.
const stores = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

export default defineConfig({
    test: {
        // Its suites mostly wait on the server they start; vitest's default (cores - 1) ran one file at a
        // time on a 2-core CI machine. VITEST_MAX_WORKERS overrides it.
        maxWorkers: 2,
        // The files that took longest in CI first (.ci/slow-first.ts), so that none starts last.
        sequence: { sequencer: SlowFirst },
        projects: stores.map((store) => ({
            extends: true,
            test: {
                name: store,
                env: { FLOWCTL_TEST_STORE: store },
                include: ['test/**/*.test.ts'],
                // Packing, installing and type-checking the package does not depend on the store: once.
                exclude: [...configDefaults.exclude, ...(store === 'embedded' ? [] : ['test/package.test.ts'])],
                globalSetup: ['../../apps/server/test/global-setup.ts'],
                // Guards against a hang, not speed limits (a loaded 2-core machine is several times slower).
                testTimeout: 300_000,
                hookTimeout: 300_000,
                pool: 'forks',
                // Files in one worker share its module cache, as the server's suite does (apps/server/vitest.config.ts).
                isolate: false,
                execArgv: TEST_EXEC_ARGV
            }
        }))
    }
});
