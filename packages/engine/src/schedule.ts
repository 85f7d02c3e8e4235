// A TRIGGER's `schedule: {cron, timezone?}`: checking it, and the instants it fires at. Pure: cron
// arithmetic by cron-parser (Agenda's own), time zones by the runtime's Intl data; the caller passes
// the clock.

import { CronExpressionParser } from 'cron-parser';

import type { Schedule } from './types.js';

/** Fields of a schedule a graph may hold; validation refuses others. */
const SCHEDULE_FIELDS = ['cron', 'timezone'];
/** Ticks sampled to find how often a schedule fires (cron fields repeat well within this many). */
const INTERVAL_SAMPLE = 120;
/** Parsed expressions kept, by cron and zone: parsing costs about as much as a next tick. */
const EXPRESSIONS_KEPT = 1_000;
/**
 * Next ticks kept, by cron, zone and instant: schedules that share a cron (every day at 9, every
 * second) share their ticks, so a tick loop computes each once, not once per schedule.
 */
const TICKS_KEPT = 10_000;
const ZONES_WITHOUT_CHANGES = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Etc/Universal', 'Universal', 'Zulu', 'Etc/Zulu']);
const SAMPLE_FROM = Date.UTC(2026, 0, 1);

export interface ScheduleOptions {
    /** A schedule firing more often than this is refused (SCHEDULE_MIN_INTERVAL_SECONDS). */
    minIntervalSeconds?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An IANA zone name the runtime knows; '' and offsets like '+02:00' are not names. */
export function isTimeZone(zone: string): boolean {
    if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
    try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
    } catch {
        return false;
    }
}

/** A bounded map: the oldest entry goes when it is full. */
const remember = <K, V>(map: Map<K, V>, key: K, value: V, cap: number): V => {
    if (map.size >= cap) map.delete(map.keys().next().value as K);
    map.set(key, value);
    return value;
};

const expressions = new Map<string, ReturnType<typeof CronExpressionParser.parse>>();

/** The schedule's expression positioned at `after`. */
const parse = (schedule: Schedule, after: Date) => {
    const key = `${schedule.timezone ?? 'UTC'}\u0000${schedule.cron}`;
    const expression =
        expressions.get(key) ??
        remember(expressions, key, CronExpressionParser.parse(schedule.cron, { tz: schedule.timezone ?? 'UTC', currentDate: after, strict: false }), EXPRESSIONS_KEPT);
    expression.reset(after);
    return expression;
};

/** Why `cron` is not a 5- or 6-field expression this service runs, or null. */
function cronProblem(cron: string, timezone: string): string | null {
    const fields = cron.trim().split(/\s+/);
    if (cron.trim() === '' || fields.length < 5 || fields.length > 6) {
        return `'cron' must have 5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first, got ${cron.trim() === '' ? 'none' : fields.length}`;
    }
    // `H` picks a random value per parse: every process would compute a different schedule.
    if (/[Hh?]/.test(cron.replace(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)\b/gi, ''))) {
        return "'cron' uses 'H' or '?', which this service does not run: name the values (e.g. '0 9 * * 1-5')";
    }
    try {
        CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date(SAMPLE_FROM) }).next();
        return null;
    } catch (err) {
        return `'cron' is not a valid expression: ${(err as Error).message}`;
    }
}

/**
 * Shortest time between two consecutive ticks in a sample, in seconds: read in UTC, where no clock
 * change moves a tick (how often the fields fire is what is asked).
 */
function shortestInterval(cron: string): number {
    const expression = CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: new Date(SAMPLE_FROM), strict: false });
    let previous = expression.next().getTime();
    let shortest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < INTERVAL_SAMPLE; i++) {
        const next = expression.next().getTime();
        shortest = Math.min(shortest, next - previous);
        previous = next;
    }
    return shortest / 1000;
}

/** Problems of a TRIGGER's `schedule`, each with its path under `path` (the schedule's own). */
export function scheduleProblems(value: unknown, path: string, options: ScheduleOptions = {}): { path: string; message: string }[] {
    if (!isRecord(value)) {
        return [{ path, message: "'schedule' must be an object {cron, timezone?}, e.g. {cron: '0 9 * * 1-5', timezone: 'Europe/Berlin'}" }];
    }
    const problems: { path: string; message: string }[] = [];
    for (const key of Object.keys(value)) {
        if (!SCHEDULE_FIELDS.includes(key)) problems.push({ path: `${path}.${key}`, message: `unknown field '${key}' in a schedule; a schedule has 'cron' and 'timezone'` });
    }
    const { cron, timezone } = value;
    let zone = 'UTC';
    if (Object.hasOwn(value, 'timezone')) {
        if (typeof timezone !== 'string' || !isTimeZone(timezone)) {
            problems.push({
                path: `${path}.timezone`,
                message: `'timezone' must be an IANA time zone name such as 'Europe/Berlin' or 'UTC', got ${typeof timezone === 'string' ? `'${timezone.slice(0, 60)}'` : String(timezone)}`
            });
            zone = '';
        } else {
            zone = timezone;
        }
    }
    if (typeof cron !== 'string') {
        problems.push({ path: `${path}.cron`, message: "a schedule needs 'cron' (a string such as '0 9 * * 1-5')" });
        return problems;
    }
    const problem = cronProblem(cron, zone || 'UTC');
    if (problem) {
        problems.push({ path: `${path}.cron`, message: problem });
    } else if (zone !== '') {
        const min = options.minIntervalSeconds ?? 1;
        // Ticks are whole seconds, and 5 fields whole minutes: no need to look when that is enough.
        const atLeast = cron.trim().split(/\s+/).length === 5 ? 60 : 1;
        const shortest = min <= atLeast ? atLeast : shortestInterval(cron);
        if (shortest < min) {
            problems.push({ path: `${path}.cron`, message: `'${cron}' fires every ${shortest} s; schedules may fire at most once every ${min} s (SCHEDULE_MIN_INTERVAL_SECONDS)` });
        }
    }
    return problems;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes `zone` is ahead of UTC at instant `at`. */
function offsetMinutes(zone: string, at: number): number {
    let format = formats.get(zone);
    if (format === undefined) {
        format = new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric'
        });
        formats.set(zone, format);
    }
    const parts = format.formatToParts(new Date(at));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return Math.round((wall - Math.floor(at / 1000) * 1000) / 60_000);
}

/**
 * The first instant in (from, to] with the offset `to` has, when the offset changed in between (one
 * change assumed: ticks are rarely half a year apart), else null.
 */
function transitionBetween(zone: string, from: number, to: number): number | null {
    const target = offsetMinutes(zone, to);
    if (offsetMinutes(zone, from) === target) return null;
    let low = Math.floor(from / 1000) * 1000;
    let high = to;
    // Offsets change on whole seconds: bisect to the first second with the new offset.
    while (high - low > 1000) {
        const mid = low + Math.max(1000, Math.floor((high - low) / 2000) * 1000);
        if (mid >= high) break;
        if (offsetMinutes(zone, mid) === target) high = mid;
        else low = mid;
    }
    return high;
}

/**
 * The first tick strictly after `after`. A tick whose local time does not exist (02:30 on the day
 * clocks spring from 02:00 to 03:00) fires at the first valid instant after the gap, 03:00: cron-parser
 * moves it an hour on instead (03:30), and from inside the gap skips it altogether. A local time that
 * happens twice (autumn) fires once, at its first occurrence, which cron-parser already does.
 */
const ticks = new Map<string, number>();

export function nextTick(schedule: Schedule, after: Date): Date {
    const key = `${schedule.timezone ?? 'UTC'}\u0000${schedule.cron}\u0000${after.getTime()}`;
    const known = ticks.get(key);
    return new Date(known ?? remember(ticks, key, computeNextTick(schedule, after).getTime(), TICKS_KEPT));
}

function computeNextTick(schedule: Schedule, after: Date): Date {
    const zone = schedule.timezone ?? 'UTC';
    let from = after.getTime();
    for (let guard = 0; guard < 8; guard++) {
        const expression = parse(schedule, new Date(from));
        const candidate = expression.next().toDate();
        if (ZONES_WITHOUT_CHANGES.has(zone)) return candidate;
        const gapEnd = transitionBetween(zone, from, candidate.getTime());
        // A tick that fell into a gap between here and the candidate fires at the gap's end.
        if (gapEnd !== null && gapEnd > after.getTime() && skippedByGap(schedule, gapEnd)) {
            return new Date(gapEnd);
        }
        if (expression.includesDate(candidate)) return candidate;
        // A tick moved out of a gap that already fired at the gap's end: look past it.
        from = candidate.getTime();
    }
    return parse(schedule, after).next().toDate();
}

/** Whether a tick fell into the gap that ends at `gapEnd` (clocks sprang forward there). */
function skippedByGap(schedule: Schedule, gapEnd: number): boolean {
    const zone = schedule.timezone ?? 'UTC';
    const jump = (offsetMinutes(zone, gapEnd) - offsetMinutes(zone, gapEnd - 1000)) * 60_000;
    if (jump <= 0) return false;
    // Wall-clock times of the gap, read in UTC where they all exist.
    const wallEnd = gapEnd + offsetMinutes(zone, gapEnd) * 60_000;
    const wallStart = wallEnd - jump;
    const inUtc = CronExpressionParser.parse(schedule.cron, { tz: 'UTC', currentDate: new Date(wallStart - 1), strict: false });
    const first = inUtc.next().toDate().getTime();
    return first >= wallStart && first < wallEnd && !parse(schedule, new Date(gapEnd - 1)).includesDate(new Date(gapEnd));
}

/**
 * The tick to run now, given the first tick not yet handled (`due`) and the clock: the most recent
 * tick at or before `now` and not before `due`, if it is within `catchUpMs` of `now`; ticks missed
 * before it are dropped, and `missed` counts those within `catchUpMs` (older ones are not looked at).
 * And the first tick after `now`, for the next time.
 */
export function dueTick(schedule: Schedule, due: Date, now: Date, catchUpMs: number): { fire: Date | null; next: Date; missed: number } {
    let tick = due.getTime() >= now.getTime() - catchUpMs ? due : nextTick(schedule, new Date(now.getTime() - catchUpMs - 1));
    if (tick.getTime() > now.getTime()) return { fire: null, next: tick, missed: 0 };
    let missed = 0;
    for (;;) {
        const following = nextTick(schedule, tick);
        if (following.getTime() > now.getTime()) return { fire: tick, next: following, missed };
        tick = following;
        missed++;
    }
}
