import Fs from 'node:fs';
import Path from 'node:path';

// A local note, per attempt at a run, of which e-mails went to the SMTP server and which it accepted,
// written synchronously: a T line as a message goes to a connection, an A line the moment its 250 is
// read, an R line when the server refused it (that copy was not accepted; a retry writes T again). The delivery record in the database follows a round trip later. A process killed in between
// leaves the element SENDING there, but its lines are already in the kernel, so whoever resumes the
// run on this machine (the process restarted, or another worker sharing FLOWCTL_DATA_DIR) knows it
// was accepted, or never sent, and neither sends it twice nor counts it as possibly duplicated.
// The notes do not survive the machine losing power; then, as on another machine, such an element is
// sent again with the same Message-ID and counted as possibly duplicated.

export interface JournalEntries {
    /** Elements (as `journalKey` writes them) handed to a connection. */
    transmitted: Set<string>;
    /** Elements the SMTP server accepted. */
    accepted: Set<string>;
}

/** JSON, so that no node id can break a line. */
export const journalKey = (nodeId: string, index: number): string => JSON.stringify([nodeId, index]);

export class DeliveryJournal {
    private fd: number | null = null;
    private started = false;
    private readonly file: string;

    constructor(
        private readonly dir: string,
        private readonly runId: string,
        readonly attempt: string,
        private readonly onError: (err: Error) => void
    ) {
        this.file = this.fileOf(attempt);
    }

    /**
     * Before this attempt's first intent (a run without e-mails never opens a file). The file exists
     * from then on, so a missing T line means "never sent"; if it cannot be written, it is removed,
     * and its elements count as unknown, as without notes.
     */
    start(): void {
        if (this.started) {
            return;
        }

        this.started = true;
        try {
            Fs.mkdirSync(this.dir, { recursive: true });
            this.fd = Fs.openSync(this.file, 'a');
        } catch (err) {
            this.discard(err as Error);
        }
    }

    transmitting(nodeId: string, index: number): void {
        this.write(`T ${journalKey(nodeId, index)}\n`);
    }

    accepted(nodeId: string, index: number): void {
        this.write(`A ${journalKey(nodeId, index)}\n`);
    }

    /** The server refused the copy that went out last: unless another goes out, it was not sent. */
    refused(nodeId: string, index: number): void {
        this.write(`R ${journalKey(nodeId, index)}\n`);
    }

    /** What an earlier attempt at the run noted, or null when it left no notes on this machine. */
    earlier(attempt: string): JournalEntries | null {
        let text: string;
        try {
            text = Fs.readFileSync(this.fileOf(attempt), 'utf8');
        } catch {
            return null;
        }

        const entries: JournalEntries = { transmitted: new Set(), accepted: new Set() };
        // A line cut short by the crash has no newline yet: only complete lines count.
        for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
            const key = line.slice(2);
            if (line.startsWith('T ')) {
                entries.transmitted.add(key);
            } else if (line.startsWith('R ')) {
                entries.transmitted.delete(key);
            } else if (line.startsWith('A ')) {
                entries.accepted.add(key);
            }
        }

        return entries;
    }

    /** The notes stay for whoever resumes the run, until it ends (removeRunJournal). */
    close(): void {
        if (this.fd !== null) {
            Fs.closeSync(this.fd);
            this.fd = null;
        }
    }

    private fileOf(attempt: string): string {
        return Path.join(this.dir, `${this.runId}.${attempt}.log`);
    }

    private write(line: string): void {
        if (this.fd === null) {
            return;
        }

        try {
            Fs.writeSync(this.fd, line);
        } catch (err) {
            this.discard(err as Error);
        }
    }

    /** Incomplete notes would claim that sent e-mails were never sent: none at all is the safe side. */
    private discard(err: Error): void {
        this.close();
        try {
            Fs.rmSync(this.file, { force: true });
        } catch {
            // Left behind, it is still read as complete: nothing more can be done from here.
        }

        this.onError(err);
    }
}

const notesFiles = (dir: string): string[] => (Fs.existsSync(dir) ? Fs.readdirSync(dir).filter((name) => name.endsWith('.log')) : []);

/** Once a run's terminal state is written: the notes of all its attempts have served. */
export const removeRunJournal = (dir: string, runId: string): void => {
    for (const name of notesFiles(dir).filter((file) => file.startsWith(`${runId}.`))) {
        Fs.rmSync(Path.join(dir, name), { force: true });
    }
};

/** The runs that have notes here (file names are `<runId>.<attempt>.log`; neither holds a dot). */
export const journaledRuns = (dir: string): string[] => [...new Set(notesFiles(dir).map((name) => name.slice(0, name.indexOf('.'))))];
