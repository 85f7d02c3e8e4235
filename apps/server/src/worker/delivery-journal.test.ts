import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { DeliveryJournal, removeRunJournal } from './delivery-journal.js';

describe('delivery journal', () => {
    let dir: string;
    const errors: Error[] = [];
    const open = (runId: string, attempt: string) => {
        const journal = new DeliveryJournal(dir, runId, attempt, (err) => errors.push(err));
        journal.start();
        return journal;
    };

    beforeEach(() => {
        dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-journal-'));
        errors.length = 0;
    });
    afterEach(() => Fs.rmSync(dir, { recursive: true, force: true }));

    it('takes an e-mail the server refused for not sent, unless a later copy went out', () => {
        const first = open('run_r', 'a1');
        first.transmitting('send', 0);
        first.refused('send', 0);
        first.transmitting('send', 1);
        first.refused('send', 1);
        first.transmitting('send', 1);
        first.close();

        expect(open('run_r', 'a2').earlier('a1')).toEqual({ transmitted: new Set(['["send",1]']), accepted: new Set() });
    });

    it("reads back an earlier attempt's notes, whatever the node id holds, and ignores a line cut short", () => {
        const first = open('run_1', 'a1');
        first.transmitting('send', 0);
        first.accepted('send', 0);
        first.transmitting('odd\nid "quoted"', 1);
        first.close();
        Fs.appendFileSync(Path.join(dir, 'run_1.a1.log'), 'A ["send",');

        const second = open('run_1', 'a2');
        expect(second.earlier('a1')).toEqual({
            transmitted: new Set(['["send",0]', '["odd\\nid \\"quoted\\"",1]']),
            accepted: new Set(['["send",0]'])
        });
        // An attempt that left no notes here (another machine) is unknown, unlike one that sent nothing.
        expect(second.earlier('elsewhere')).toBeNull();
        expect(second.earlier('a2')).toEqual({ transmitted: new Set(), accepted: new Set() });
        expect(errors).toEqual([]);
    });

    it("removes every attempt's notes of a run once it ended, and no other run's", () => {
        open('run_1', 'a1').close();
        open('run_1', 'a2').close();
        open('run_2', 'b1').close();
        removeRunJournal(dir, 'run_1');
        expect(Fs.readdirSync(dir)).toEqual(['run_2.b1.log']);
    });

    it('opens no file for an attempt that sends no e-mail', () => {
        new DeliveryJournal(dir, 'run_1', 'a1', (err) => errors.push(err)).close();
        expect(Fs.readdirSync(dir)).toEqual([]);
    });

    it('leaves no notes at all when they cannot be written, so its e-mails count as unknown', () => {
        // A disk that is full: every write fails with ENOSPC.
        Fs.symlinkSync('/dev/full', Path.join(dir, 'run_1.a1.log'));
        const journal = open('run_1', 'a1');
        journal.transmitting('send', 0);
        journal.accepted('send', 0);
        expect(errors.map((err) => (err as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);
        expect(open('run_1', 'a2').earlier('a1')).toBeNull();
    });
});
