import { defineConfig } from 'tsup';

// The graph types come from @flowctl/engine, which only the declarations use: they are copied into
// ours (dts resolve) so that the published SDK needs nothing but undici at install time.
export default defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: { resolve: ['@flowctl/engine'] },
    clean: true,
    sourcemap: true,
    target: 'es2023'
});
