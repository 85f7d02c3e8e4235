// What the per-store benchmarks share: a server on one store mailing to a sink, and aligned report lines.
import { startServer } from './server.mjs';

/**
 * Starts a server on `store` (with `env`, mailing to `sink`), runs `body({ server, sink, report })`, then
 * stops the server and closes the sink. True when every figure reported met its target, or when the
 * store is absent (startServer printed why). `report(what, value, target, ok)` prints one line in
 * columns `widths` wide: what, value, target.
 */
export const openBench = async (store, sink, env, [whatWidth, valueWidth, targetWidth], body) => {
    const server = await startServer({ store, env: { ...env, SMTP_URL: sink.url } });
    if (!server) {
        await sink.close();
        return true;
    }

    let met = true;
    const report = (what, value, target, ok) => {
        met &&= ok;
        console.log(`${store.padEnd(8)} ${what.padEnd(whatWidth)} ${value.padStart(valueWidth)}   target ${target.padEnd(targetWidth)} ${ok ? 'ok' : 'MISSED'}`);
    };

    try {
        await body({ server, sink, report });
    } finally {
        await server.stop();
        await sink.close();
    }

    return met;
};
