// Uploading local CSV files: by content hash, so re-applying an unchanged file uploads nothing.
// The server is asked which of the account's uploads have the file's SHA-256 (GET /api/uploads?sha256=),
// so the answer is the same from any machine and for any account: a fresh CI runner with an empty config
// folder finds what an earlier apply uploaded, and `--dry-run` reports the truth. No local cache.
import Crypto from 'node:crypto';
import Fs from 'node:fs';
import Path from 'node:path';
import { Transform } from 'node:stream';

import type { Flowctl, Upload } from '@flowctl/sdk';

import type { Ctx } from './context.js';
import { flowctlCommand } from './next-command.js';
import { CliError, EXIT } from './errors.js';
import { inline, message } from './visible.js';

export const sha256File = async (path: string): Promise<string> => {
    const hash = Crypto.createHash('sha256');
    for await (const chunk of Fs.createReadStream(path)) {
        hash.update(chunk as Buffer);
    }

    return hash.digest('hex');
};

// Large enough that a quick upload does not flash a line.
const PROGRESS_MIN_BYTES = 1 << 20;

const megabytes = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`;

/**
 * The server refuses a file name with a control, bidi or invisible character (it would show as another
 * name): the fix is here, on this machine, so say which file and what to type next.
 */
const refusedName = async (ctx: Ctx, err: unknown, path: string): Promise<never> => {
    const { BadRequestError } = await import('@flowctl/sdk');
    if (err instanceof BadRequestError && err.message.includes("'filename'")) {
        throw new CliError(
            `cannot upload ${inline(path)}: ${message(err.message)}`,
            EXIT.usage,
            `rename the file to plain text (mv -- <file> contacts.csv), then use the new name: ${flowctlCommand(ctx, 'upload <new name>')}, or the DATA_SOURCE file: of the workflow`
        );
    }

    throw err;
};

/** Uploads `path`, with a progress line on stderr when it is a terminal and the file is big. */
export const uploadWithProgress = (ctx: Ctx, api: Flowctl, path: string): Promise<Upload> => sendFile(ctx, api, path).catch((err: unknown) => refusedName(ctx, err, path));

const sendFile = async (ctx: Ctx, api: Flowctl, path: string): Promise<Upload> => {
    const size = Fs.statSync(path).size;
    const filename = Path.basename(path);
    if (!ctx.io.stderrTty || size < PROGRESS_MIN_BYTES) {
        return api.uploads.create(path, { filename });
    }

    let sent = 0;
    let shown = -1;
    const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
            sent += chunk.length;
            const percent = Math.floor((sent / size) * 100);
            if (percent !== shown) {
                shown = percent;
                // The local name may hold an escape sequence too: shown, not obeyed.
                process.stderr.write(`\r\u001b[2Kuploading ${inline(filename)}: ${percent}% of ${megabytes(size)}`);
            }

            done(null, chunk);
        }
    });
    try {
        return await api.uploads.create(Fs.createReadStream(path).pipe(counter), { filename });
    } finally {
        process.stderr.write('\r\u001b[2K');
    }
};

export interface PlacedFile {
    path: string;
    uploadId: string | null;
    action: 'uploaded' | 'unchanged' | 'would upload';
}

/**
 * The uploadId for the bytes of `path`: the account's upload of the same bytes and name when the server
 * has one, else a new upload (not with dryRun). The server matches the same way on upload, so two
 * machines applying at once still end with one upload.
 */
export const placeFile = async (ctx: Ctx, api: Flowctl, path: string, dryRun: boolean): Promise<PlacedFile> => {
    const sha256 = await sha256File(path);
    const filename = Path.basename(path);
    for await (const upload of api.uploads.list({ sha256 })) {
        if (upload.filename === filename) {
            return { path, uploadId: upload.uploadId, action: 'unchanged' };
        }
    }

    if (dryRun) {
        return { path, uploadId: null, action: 'would upload' };
    }

    const upload = await uploadWithProgress(ctx, api, path);
    return { path, uploadId: upload.uploadId, action: 'uploaded' };
};
