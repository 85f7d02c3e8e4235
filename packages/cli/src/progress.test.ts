import type { RunNode } from '@flowctl/sdk';
import { describe, expect, it } from 'vitest';

import type { Io } from './io.js';
import { Meter, progressLine } from './progress.js';

const io = (color: boolean) => ({ color }) as Io;
const output = (figures: Record<string, number | string>): RunNode =>
    ({ nodeId: 'send', type: 'OUTPUT', status: 'RUNNING', error: null, startedAt: null, completedAt: null, output: figures }) as RunNode;

describe('progress lines', () => {
    it('show the count of the total, a bar, the rate over the last seconds and the time left', () => {
        const meter = new Meter();
        meter.see('send', 0, 0);
        meter.see('send', 100, 2000);
        expect(progressLine(io(false), output({ emailsSent: 100, emailsTotal: 400 }), meter, 2000)).toBe(
            'send (OUTPUT) [██████░░░░░░░░░░░░░░░░░░] 100/400 e-mails · 50/s · ETA 6s'
        );
        // Coloured only when colour is wanted (NO_COLOR unset, a terminal).
        expect(progressLine(io(true), output({ emailsSent: 100, emailsTotal: 400 }), meter, 2000)).toContain('\u001b[32m██████\u001b[0m');
    });

    it('let the rate fall while nothing moves, and say nothing of it before a second of samples', () => {
        const meter = new Meter();
        meter.see('send', 0, 0);
        expect(progressLine(io(false), output({ emailsSent: 0, emailsTotal: 10 }), meter, 500)).toBe('send (OUTPUT) [░░░░░░░░░░░░░░░░░░░░░░░░] 0/10 e-mails');
        meter.see('send', 5, 1000);
        expect(progressLine(io(false), output({ emailsSent: 5, emailsTotal: 10 }), meter, 1000)).toMatch(/5\/10 e-mails · 5\.0\/s · ETA 1s$/);
        // 20 s later with no news: nothing sent in the last 10 s.
        expect(progressLine(io(false), output({ emailsSent: 5, emailsTotal: 10 }), meter, 21_000)).toMatch(/5\/10 e-mails · 0\.0\/s · ETA -$/);
    });

    it('count without a bar when the total is not known, and leave nodes that count nothing alone', () => {
        const meter = new Meter();
        expect(progressLine(io(false), output({ emailsSent: 7 }), meter, 0)).toBe('send (OUTPUT) 7 e-mails');
        const ai = { ...output({ aiDone: 3, aiTotal: 12 }), nodeId: 'write', type: 'AI' } as RunNode;
        expect(progressLine(io(false), ai, meter, 0)).toBe('write (AI) [██████░░░░░░░░░░░░░░░░░░] 3/12 AI calls');
        expect(progressLine(io(false), { ...output({}), type: 'FILTER' } as RunNode, meter, 0)).toBeNull();
    });

    it('say why an OUTPUT node is held up, as the run detail gives it', () => {
        const meter = new Meter();
        const held = output({ emailsSent: 64, emailsTotal: 200, waiting: 'relay unreachable since 12:00:01 (connect ECONNREFUSED), next try in 8 s' });
        expect(progressLine(io(false), held, meter, 0)).toBe(
            'send (OUTPUT) [████████░░░░░░░░░░░░░░░░] 64/200 e-mails · waiting: relay unreachable since 12:00:01 (connect ECONNREFUSED), next try in 8 s'
        );
    });
});
