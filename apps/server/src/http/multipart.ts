import { Readable } from 'node:stream';

import Boom from '@hapi/boom';

// hapi's own multipart parsing (subtext + pez) reads every part whole into memory before the handler
// runs, even with `multipart: { output: 'stream' }`. Uploads can be 50 MiB, so routes that take files
// receive the raw body (`parse: false`) and read it with this streaming reader instead.

export interface Part {
    /** The form field name. */
    name: string;
    /** Null for a plain (non-file) field. */
    filename: string | null;
    contentType: string | null;
    /** Must be read to its end (or the whole request abandoned) before asking for the next part. */
    body: Readable;
}

export interface MultipartLimits {
    maxParts: number;
    maxHeaderBytes: number;
    /** Largest part body; past it the body stream fails with `tooLarge()`. */
    maxPartBytes: number;
    tooLarge: () => Error;
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

const malformed = (why: string): Boom.Boom => Boom.badRequest(`Malformed multipart/form-data body: ${why}.`);

/** The boundary parameter of a multipart Content-Type, or null. */
export const multipartBoundary = (contentType: string | undefined): string | null => {
    const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? '');
    return match ? (match[1] ?? match[2] ?? null) : null;
};

// Browsers percent-encode quotes in file names and leave backslashes alone (a Windows path may still
// arrive), so only an escaped quote or backslash is unescaped.
const unquote = (value: string): string => (value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(["\\])/g, '$1') : value.trim());

/** `form-data; name="file"; filename="a.csv"` (and RFC 5987 `filename*=UTF-8''…`). */
const parseDisposition = (value: string): { name: string; filename: string | null } => {
    const params = new Map<string, string>();
    for (const match of value.matchAll(/;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
        params.set(match[1]!.toLowerCase(), unquote(match[2]!));
    }

    if (!/^\s*form-data\s*(;|$)/i.test(value) || !params.has('name')) {
        throw malformed(`a part's Content-Disposition must be form-data with a name (got '${value}')`);
    }

    let filename = params.get('filename') ?? null;
    const extended = /^utf-8''(.*)$/i.exec(params.get('filename*') ?? '');
    if (extended) {
        try {
            filename = decodeURIComponent(extended[1]!);
        } catch {
            // Keep the plain filename parameter.
        }
    }

    return { name: params.get('name')!, filename };
};

/**
 * Reads multipart/form-data from a byte stream one part at a time, each part's body a stream, so
 * memory stays at about one network chunk however large the file. Back-pressure reaches the socket:
 * nothing is read faster than the consumer of the current part's body takes it.
 */
export class MultipartReader {
    readonly #source: AsyncIterator<Buffer>;
    readonly #delimiter: Buffer;
    readonly #limits: MultipartLimits;
    // Starts with CRLF so that the first delimiter, which has none before it, matches like the others.
    #buffer: Buffer = Buffer.from(CRLF);
    #started = false;
    #inBody = false;
    #done = false;
    #parts = 0;

    constructor(source: AsyncIterable<Buffer>, boundary: string, limits: MultipartLimits) {
        this.#source = source[Symbol.asyncIterator]();
        this.#delimiter = Buffer.from(`\r\n--${boundary}`);
        this.#limits = limits;
    }

    /** The next part, or null after the closing delimiter. */
    async next(): Promise<Part | null> {
        if (this.#inBody) {
            throw new Error('MultipartReader.next() called before the previous part was read');
        }

        if (!this.#started) {
            this.#started = true;
            await this.#skipPreamble();
        }

        if (this.#done) {
            return null;
        }

        // After a delimiter: `--` closes the body; otherwise optional padding, CRLF, headers, CRLF CRLF.
        while (this.#buffer.length < 2) {
            if (!(await this.#more())) {
                throw malformed('it ends right after a boundary');
            }
        }

        if (this.#buffer[0] === 0x2d && this.#buffer[1] === 0x2d) {
            this.#done = true;
            return null;
        }

        const lineEnd = await this.#find(CRLF, 0, 256);
        if (this.#buffer.subarray(0, lineEnd).toString('latin1').trim() !== '') {
            throw malformed('unexpected bytes after a boundary');
        }

        const headersEnd = await this.#find(HEADERS_END, lineEnd, this.#limits.maxHeaderBytes);
        const headers = this.#parseHeaders(this.#buffer.subarray(lineEnd + 2, Math.max(headersEnd, lineEnd + 2)).toString('utf8'));
        this.#buffer = this.#buffer.subarray(headersEnd + HEADERS_END.length);

        this.#parts += 1;
        if (this.#parts > this.#limits.maxParts) {
            throw malformed(`it has more than ${this.#limits.maxParts} parts`);
        }

        const disposition = parseDisposition(headers.get('content-disposition') ?? '');
        this.#inBody = true;
        return {
            ...disposition,
            contentType: headers.get('content-type') ?? null,
            body: Readable.from(this.#body(), { objectMode: false })
        };
    }

    async *#body(): AsyncGenerator<Buffer> {
        let bytes = 0;
        const emit = (chunk: Buffer): Buffer => {
            bytes += chunk.length;
            if (bytes > this.#limits.maxPartBytes) {
                throw this.#limits.tooLarge();
            }

            return chunk;
        };

        for (;;) {
            const end = this.#buffer.indexOf(this.#delimiter);
            if (end !== -1) {
                const last = this.#buffer.subarray(0, end);
                this.#buffer = this.#buffer.subarray(end + this.#delimiter.length);
                this.#inBody = false;
                if (last.length > 0) {
                    yield emit(last);
                }

                return;
            }

            // Everything but a possible partial delimiter at the end is body.
            const safe = this.#buffer.length - (this.#delimiter.length - 1);
            if (safe > 0) {
                const chunk = this.#buffer.subarray(0, safe);
                this.#buffer = this.#buffer.subarray(safe);
                yield emit(chunk);
            }

            if (!(await this.#more())) {
                throw malformed('it ends inside a part (the closing boundary is missing; was the upload cut off?)');
            }
        }
    }

    async #skipPreamble(): Promise<void> {
        for (;;) {
            const at = this.#buffer.indexOf(this.#delimiter);
            if (at !== -1) {
                this.#buffer = this.#buffer.subarray(at + this.#delimiter.length);
                return;
            }

            this.#buffer = this.#buffer.subarray(Math.max(0, this.#buffer.length - this.#delimiter.length));
            if (!(await this.#more())) {
                throw malformed('no boundary found; is the body really multipart/form-data?');
            }
        }
    }

    /** Index of `needle` at or after `from`, reading more as needed, failing once `limit` bytes were searched. */
    async #find(needle: Buffer, from: number, limit: number): Promise<number> {
        for (;;) {
            const at = this.#buffer.indexOf(needle, from);
            if (at !== -1) {
                return at;
            }

            if (this.#buffer.length - from > limit) {
                throw malformed(`part headers longer than ${limit} bytes`);
            }

            if (!(await this.#more())) {
                throw malformed('it ends inside part headers');
            }
        }
    }

    #parseHeaders(text: string): Map<string, string> {
        const headers = new Map<string, string>();
        for (const line of text.split('\r\n')) {
            if (line === '') {
                continue;
            }

            const colon = line.indexOf(':');
            if (colon <= 0) {
                throw malformed(`bad part header line '${line.slice(0, 100)}'`);
            }

            headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }

        return headers;
    }

    async #more(): Promise<boolean> {
        const next = await this.#source.next();
        if (next.done) {
            return false;
        }

        this.#buffer = this.#buffer.length > 0 ? Buffer.concat([this.#buffer, next.value]) : next.value;
        return true;
    }
}

/**
 * The chunks of a request body as they arrive. Unlike `for await`, it leaves the stream alone when
 * it fails or is abandoned: destroying a request destroys its socket, and the client would get no answer.
 */
export async function* readChunks(stream: Readable): AsyncGenerator<Buffer> {
    for (;;) {
        const chunk = stream.read() as Buffer | null;
        if (chunk !== null) {
            yield chunk;
            continue;
        }

        if (stream.errored) {
            throw stream.errored;
        }

        if (stream.readableEnded) {
            return;
        }

        await new Promise<void>((resolve, reject) => {
            const settle = (err?: Error) => {
                stream.off('readable', settle).off('end', settle).off('error', settle);
                if (err) {
                    reject(err);
                } else {
                    resolve();
                }
            };
            stream.on('readable', settle).on('end', settle).on('error', settle);
        });
    }
}

/** Counts bytes through an async iterable, failing with `tooLarge()` past `maxBytes`. */
export async function* limitBytes(source: AsyncIterable<Buffer>, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Buffer> {
    let seen = 0;
    for await (const chunk of source) {
        seen += chunk.length;
        if (seen > maxBytes) {
            throw tooLarge();
        }

        yield chunk;
    }
}

export interface SingleFileOptions<T> {
    /** The form field that must carry the file. */
    field: string;
    /** The whole body, envelope included: a client streaming without Content-Length is stopped here. */
    maxBodyBytes: number;
    limits: MultipartLimits;
    /** Reads the file part's body to its end. */
    accept(part: Part): Promise<T>;
    /** Reverts accept() when the rest of the body turns out to be wrong. */
    undo(result: T): Promise<void>;
}

/**
 * Reads a multipart body that carries exactly one file in `options.field`; other fields are read
 * and ignored. On any failure the error is thrown at once, the rest of the body unread: the answer
 * then closes the connection (see request-bodies.ts) rather than wait for a body that may never end.
 */
export const receiveSingleFile = async <T>(source: Readable, contentType: string | undefined, options: SingleFileOptions<T>): Promise<T> => {
    const boundary = multipartBoundary(contentType);
    if (!boundary) {
        throw Boom.badRequest("The multipart/form-data Content-Type has no boundary parameter: let your HTTP client build the form body (e.g. curl -F 'file=@data.csv').");
    }

    const reader = new MultipartReader(limitBytes(readChunks(source), options.maxBodyBytes, options.limits.tooLarge), boundary, options.limits);
    let accepted: { result: T } | null = null;
    const others: string[] = [];
    try {
        for (let part = await reader.next(); part; part = await reader.next()) {
            if (part.name !== options.field) {
                others.push(part.name);
                part.body.resume();
                await new Promise((resolve, reject) => part.body.once('end', resolve).once('error', reject));
                continue;
            }

            if (accepted) {
                throw Boom.badRequest(`Send one file per request: the body has more than one '${options.field}' field.`);
            }

            accepted = { result: await options.accept(part) };
        }
    } catch (err) {
        if (accepted) {
            await options.undo(accepted.result).catch(() => {});
        }

        throw err;
    }

    if (!accepted) {
        const got = others.length > 0 ? `it has ${others.map((name) => `'${name}'`).join(', ')}` : 'it has no fields';
        throw Boom.badRequest(`The form has no field named '${options.field}' (${got}): send the file in a multipart/form-data field named '${options.field}'.`);
    }

    return accepted.result;
};
