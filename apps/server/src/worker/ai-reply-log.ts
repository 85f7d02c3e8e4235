import type { AiReplyRecord } from '../store/ai-replies.js';

/**
 * Group commit for language-model replies: one write at a time, the next taking every reply that
 * arrived meanwhile. Unlike delivery records there is no pause between writes: a reply not yet
 * written when the worker dies is paid for again, so the window is kept to one write. A reply that
 * could not be recorded costs nothing now, only a second call if the run is resumed: it is logged,
 * and the run goes on.
 */
export class AiReplyLog {
    private queued: { reply: AiReplyRecord; done: () => void }[] = [];
    private scheduled = false;
    private inflight: Promise<void> = Promise.resolve();

    constructor(
        private readonly write: (replies: AiReplyRecord[]) => Promise<void>,
        private readonly onFailure: (err: unknown) => void
    ) {}

    /** Resolves once the reply was written (or could not be: that is logged, not thrown). */
    add(reply: AiReplyRecord): Promise<void> {
        const written = new Promise<void>((done) => this.queued.push({ reply, done }));
        if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => void this.flush());
        }

        return written;
    }

    /** Resolves once every reply added so far was written (or failed to be). */
    settle(): Promise<void> {
        return this.flush();
    }

    private flush(): Promise<void> {
        this.inflight = this.inflight.then(async () => {
            this.scheduled = false;
            const batch = this.queued.splice(0);
            if (batch.length === 0) {
                return;
            }

            try {
                await this.write(batch.map((entry) => entry.reply));
            } catch (err) {
                this.onFailure(err);
            }

            for (const entry of batch) {
                entry.done();
            }
        });
        return this.inflight;
    }
}
