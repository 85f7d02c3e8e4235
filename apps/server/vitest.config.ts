import { defineConfig } from 'vitest/config';

import { SlowFirst } from '../../.ci/slow-first.js';
import { TEST_EXEC_ARGV } from '../../.ci/test-node-flags.js';

// Every API suite runs on embedded PGlite; with TEST_DATABASE_URL it runs again on real PostgreSQL.
const stores = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

export default defineConfig({
    test: {
        // A suite spends most of its time waiting (on a lease to expire, a child server to start, a
        // relay, the database), so more files at once than cores: vitest's default, one fewer than the
        // cores, ran one file at a time on a 2-core CI machine. VITEST_MAX_WORKERS overrides it.
        maxWorkers: 4,
        // The files that took longest in CI first (.ci/slow-first.ts), so that none starts last.
        sequence: { sequencer: SlowFirst },
        projects: stores.map((store) => ({
            extends: true,
            test: {
                name: store,
                env: { FLOWCTL_TEST_STORE: store },
                include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
                globalSetup: ['test/global-setup.ts'],
                // Guards against a hang, not speed limits: a file sets none of its own, unless its limit is part of
                // what it checks (watch, drip-fed: a request not answered in time fails there). With
                // another suite beside this one on 2 cores, cases that take 2 s alone took 12-31 s (runs-fairness);
                // with two CIs side by side on a slower machine, cases that take 20-60 s in CI ran past 60-180 s.
                testTimeout: 300_000,
                hookTimeout: 300_000,
                pool: 'forks',
                // Files in one worker share its module cache: evaluating the server's modules again for each
                // file was a third of the suite's time on 2 cores (265 s -> 178 s on the embedded store). Every
                // file starts its own servers and closes them; none patches a module for good.
                isolate: false,
                execArgv: TEST_EXEC_ARGV
            }
        }))
    }
});
