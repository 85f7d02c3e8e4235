import { defineConfig } from 'vitest/config';

import { SlowFirst } from '../../.ci/slow-first.js';
import { TEST_EXEC_ARGV } from '../../.ci/test-node-flags.js';

// The tests spawn the built binary against a real server; one initdb per run (global setup), forks.
export default defineConfig({
    test: {
        include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
        // The server's own: one initdb per run, a migrated template each suite's server copies.
        globalSetup: ['../../apps/server/test/global-setup.ts'],
        // Guards against a hang, not speed limits: a case pasting 30 commands took 41 s in CI and
        // over 60 s with another suite beside it on 2 cores (revisions.test.ts); one pasting 140 took over
        // 400 s with two CIs side by side on a slower machine (help-examples.test.ts sets its own, longer).
        testTimeout: 600_000,
        hookTimeout: 600_000,
        pool: 'forks',
        // Files in one worker share its module cache, as the server's suite does (apps/server/vitest.config.ts).
        isolate: false,
        execArgv: TEST_EXEC_ARGV,
        // A suite mostly waits on the binaries it spawns and the server it starts; vitest's default
        // (cores - 1) ran one file at a time on a 2-core CI machine. Three: this package's tests start
        // last (after the server's build) and held CI's longest files. VITEST_MAX_WORKERS overrides it.
        maxWorkers: 3,
        // The files that took longest in CI first (.ci/slow-first.ts), so that none starts last.
        sequence: { sequencer: SlowFirst }
    }
});
