import { defineConfig } from 'tsup';

export default defineConfig({
    entry: { index: 'src/index.ts', main: 'src/main.ts', 'embedded-thread': 'src/store/embedded-thread.ts' },
    format: ['esm'],
    dts: { entry: 'src/index.ts' },
    clean: true,
    sourcemap: true,
    target: 'es2023'
});
