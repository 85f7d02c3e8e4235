import { CronExpressionParser } from 'cron-parser';
import { describe, expect, it } from 'vitest';

import { dueTick, nextTick, scheduleProblems } from './schedule.js';
import { validateGraph } from './graph/validate.js';

const ticks = (cron: string, timezone: string, from: string, count: number): string[] => {
    const out: string[] = [];
    let at = new Date(from);
    for (let i = 0; i < count; i++) {
        at = nextTick({ cron, timezone }, at);
        out.push(at.toISOString());
    }
    return out;
};

/** Every tick from `from` until `to`, one by one as the tick loop takes them. */
const ticksUntil = (cron: string, timezone: string, from: string, to: string): string[] => {
    const out: string[] = [];
    for (let at = nextTick({ cron, timezone }, new Date(from)); at < new Date(to); at = nextTick({ cron, timezone }, at)) out.push(at.toISOString());
    return out;
};

describe('a daily 02:30 across daylight-saving changes', () => {
    it('cron-parser alone moves the spring tick an hour late (03:30), which is what nextTick corrects', () => {
        const e = CronExpressionParser.parse('30 2 * * *', { tz: 'Europe/Berlin', currentDate: new Date('2026-03-28T12:00:00Z') });
        expect(e.next().toDate().toISOString()).toBe('2026-03-29T01:30:00.000Z');
    });

    it('Europe/Berlin spring (02:00 → 03:00): once, at 03:00 CEST, the first valid instant after the gap', () => {
        expect(ticksUntil('30 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', '2026-03-31T12:00:00Z')).toEqual([
            '2026-03-28T01:30:00.000Z', // 02:30 CET
            '2026-03-29T01:00:00.000Z', // 03:00 CEST
            '2026-03-30T00:30:00.000Z', // 02:30 CEST
            '2026-03-31T00:30:00.000Z'
        ]);
    });

    it('Europe/Berlin spring, asked from inside and just before the gap', () => {
        expect(nextTick({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, new Date('2026-03-29T00:59:59Z')).toISOString()).toBe('2026-03-29T01:00:00.000Z');
        expect(nextTick({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, new Date('2026-03-29T00:30:00Z')).toISOString()).toBe('2026-03-29T01:00:00.000Z');
        expect(nextTick({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, new Date('2026-03-29T01:00:00Z')).toISOString()).toBe('2026-03-30T00:30:00.000Z');
    });

    it('Europe/Berlin autumn (03:00 → 02:00): once, at the first 02:30 (CEST), not twice', () => {
        expect(ticksUntil('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', '2026-10-27T12:00:00Z')).toEqual([
            '2026-10-25T00:30:00.000Z', // 02:30 CEST
            '2026-10-26T01:30:00.000Z', // 02:30 CET
            '2026-10-27T01:30:00.000Z'
        ]);
    });

    it('America/New_York spring (02:00 → 03:00): once, at 03:00 EDT', () => {
        expect(ticksUntil('30 2 * * *', 'America/New_York', '2026-03-06T12:00:00Z', '2026-03-10T12:00:00Z')).toEqual([
            '2026-03-07T07:30:00.000Z', // 02:30 EST
            '2026-03-08T07:00:00.000Z', // 03:00 EDT
            '2026-03-09T06:30:00.000Z', // 02:30 EDT
            '2026-03-10T06:30:00.000Z'
        ]);
    });

    it('America/New_York autumn (02:00 → 01:00): 02:30 is not repeated there, and 01:30, which is, runs once', () => {
        expect(ticksUntil('30 2 * * *', 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z')).toEqual(['2026-11-01T07:30:00.000Z', '2026-11-02T07:30:00.000Z']);
        expect(ticksUntil('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z')).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
    });

    it('an hourly schedule runs at 03:00 once on the spring day, and in each real hour in autumn', () => {
        expect(ticks('0 * * * *', 'Europe/Berlin', '2026-03-28T23:30:00Z', 3)).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
        expect(ticks('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 3)).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z']);
    });

    it('a seconds schedule steps over the gap without a burst', () => {
        const around = ticks('*/20 * * * * *', 'Europe/Berlin', '2026-03-29T00:59:30Z', 4);
        expect(around).toEqual(['2026-03-29T00:59:40.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T01:00:20.000Z', '2026-03-29T01:00:40.000Z']);
    });

    it('dueTick: the tick due now; after downtime only the most recent missed tick within the catch-up window', () => {
        const s = { cron: '0 * * * *', timezone: 'UTC' };
        expect(dueTick(s, new Date('2026-05-01T10:00:00Z'), new Date('2026-05-01T10:00:00.200Z'), 3600_000)).toEqual({
            fire: new Date('2026-05-01T10:00:00Z'),
            next: new Date('2026-05-01T11:00:00Z'),
            missed: 0
        });
        expect(dueTick(s, new Date('2026-05-01T09:00:00Z'), new Date('2026-05-01T10:20:00Z'), 7200_000)).toEqual({
            fire: new Date('2026-05-01T10:00:00Z'),
            next: new Date('2026-05-01T11:00:00Z'),
            missed: 1
        });
        expect(dueTick(s, new Date('2026-05-01T06:00:00Z'), new Date('2026-05-01T10:20:00Z'), 3600_000)).toEqual({
            fire: new Date('2026-05-01T10:00:00Z'),
            next: new Date('2026-05-01T11:00:00Z'),
            missed: 0
        });
        expect(dueTick({ cron: '0 0 * * *', timezone: 'UTC' }, new Date('2026-05-01T00:00:00Z'), new Date('2026-05-01T02:00:00Z'), 3600_000)).toEqual({
            fire: null,
            next: new Date('2026-05-02T00:00:00Z'),
            missed: 0
        });
    });
});

describe('scheduleProblems', () => {
    const at = 'nodes[0].data.schedule';
    const messages = (schedule: unknown, options = {}) => scheduleProblems(schedule, at, options);

    it.each([
        ['* * * * * * *', `${at}.cron`],
        ['61 * * * *', `${at}.cron`],
        ['*/0 * * * *', `${at}.cron`],
        ['', `${at}.cron`],
        ['H * * * *', `${at}.cron`]
    ])('refuses cron %j', (cron, path) => {
        const problems = messages({ cron });
        expect(problems).toHaveLength(1);
        expect(problems[0]?.path).toBe(path);
    });

    it.each(['', 'Mars/Olympus', '+02:00', 'Europe/../etc'])('refuses zone %j', (timezone) => {
        expect(messages({ cron: '0 9 * * *', timezone })).toEqual([{ path: `${at}.timezone`, message: expect.stringContaining('IANA') }]);
    });

    it('refuses a schedule firing more often than the minimum interval', () => {
        expect(messages({ cron: '*/2 * * * * *' }, { minIntervalSeconds: 5 })).toEqual([{ path: `${at}.cron`, message: expect.stringContaining('every 2 s') }]);
        expect(messages({ cron: '*/2 * * * * *' })).toEqual([]);
        expect(messages({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' })).toEqual([]);
    });

    it('refuses unknown keys and a schedule that is not an object', () => {
        expect(messages({ cron: '0 9 * * *', tz: 'UTC' })).toEqual([{ path: `${at}.tz`, message: expect.stringContaining("unknown field 'tz'") }]);
        expect(messages('0 9 * * *')[0]?.path).toBe(at);
    });

    it('validateGraph names graph.nodes[i].data.schedule; a webhook TRIGGER offers rows and count', () => {
        const bad = validateGraph({ nodes: [{ id: 'trigger', type: 'TRIGGER', data: { schedule: { cron: '61 * * * *' } } }], edges: [] });
        expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(['nodes[0].data.schedule.cron']);
        const hooked = {
            nodes: [
                { id: 'trigger', type: 'TRIGGER', data: { webhook: true } },
                { id: 'out', type: 'OUTPUT', data: { forEach: '{{trigger.rows}}', to: '{{item.email}}', subject: '{{trigger.count}} new', body: 'hi' } }
            ],
            edges: [{ source: 'trigger', target: 'out' }]
        };
        expect(validateGraph(hooked).ok).toBe(true);
        const plain = { ...hooked, nodes: [{ id: 'trigger', type: 'TRIGGER', data: {} }, hooked.nodes[1]] };
        expect(validateGraph(plain).ok).toBe(false);
    });
});
