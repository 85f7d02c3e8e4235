import { defineConfig } from 'vitest/config';

// Property tests run thousands of cases; on a loaded 2-core CI machine they need more than the 5 s default.
export default defineConfig({ test: { testTimeout: 60_000 } });
