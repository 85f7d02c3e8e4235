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

/**
 * For a benchmark that manages its own server: `report(what, value, target, ok)` prints one aligned
 * line (MISSED when not ok); `met()` says whether every figure so far met its target.
 */
export const reporter = () => {
    let all = true;
    return {
        report(label, value, target, ok) {
            all &&= ok;
            console.log(`${label.padEnd(66)} ${String(value).padStart(10)}   target ${target}${ok ? '' : '   MISSED'}`);
        },
        met: () => all
    };
};

/** The nearest-rank percentile `p` (0–100) of `values`. */
export const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
