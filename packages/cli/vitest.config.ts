import { defineConfig } from 'vitest/config';

// The tests spawn the built binary against a real server; one initdb per run (global setup), forks.
export default defineConfig({
    test: {
        include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
        // The server's own: one initdb per run, a migrated template each suite's server copies.
        globalSetup: ['../../apps/server/test/global-setup.ts'],
        testTimeout: 60_000,
        hookTimeout: 90_000,
        pool: 'forks'
    }
});
