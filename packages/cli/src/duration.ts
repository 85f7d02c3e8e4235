import { usageError } from './errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `10m`, `90s`, `1h30m`, `500ms`; a bare number is seconds. */
export const parseDuration = (text: string): number => {
    const trimmed = text.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) {
        return Number(trimmed) * 1000;
    }

    const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
    if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) {
        throw usageError(`--timeout '${text}' is not a duration`, 'write it like 90s, 10m or 1h30m');
    }

    return parts.reduce((total, [, value, unit]) => total + Number(value) * UNITS[unit!]!, 0);
};

export const formatDuration = (ms: number): string => {
    if (ms < 1000) {
        return `${Math.round(ms)}ms`;
    }

    if (ms < 60_000) {
        return `${(ms / 1000).toFixed(1)}s`;
    }

    return `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
};
