import { defineConfig } from 'vitest/config';

// Every API suite runs on embedded PGlite; with TEST_DATABASE_URL it runs again on real PostgreSQL.
const stores = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

export default defineConfig({
    test: {
        projects: stores.map((store) => ({
            extends: true,
            test: {
                name: store,
                env: { FLOWCTL_TEST_STORE: store },
                include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
                globalSetup: ['test/global-setup.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
                pool: 'forks'
            }
        }))
    }
});
