import { defineConfig } from 'vitest/config';

import { SlowFirst } from '../../.ci/slow-first.js';

// The tests spawn the built binary against a real server; one initdb per run (global setup), forks.
export default defineConfig({
    test: {
        include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
        // The server's own: one initdb per run, a migrated template each suite's server copies.
        globalSetup: ['../../apps/server/test/global-setup.ts'],
        testTimeout: 60_000,
        hookTimeout: 90_000,
        pool: 'forks',
        // A suite mostly waits on the binaries it spawns and the server it starts; vitest's default
        // (cores - 1) ran one file at a time on a 2-core CI machine. Three: this package's tests start
        // last (after the server's build) and held CI's longest files. VITEST_MAX_WORKERS overrides it.
        maxWorkers: 3,
        // The files that took longest in CI first (.ci/slow-first.ts), so that none starts last.
        sequence: { sequencer: SlowFirst }
    }
});
