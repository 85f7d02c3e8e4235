import type { Flowctl, RequestOptions } from '../client.js';
import { multipartFile, type Uploadable } from '../multipart.js';
import type { PagedList } from '../pagination.js';
import type { Upload } from '../types.js';

export interface UploadCreateOptions extends RequestOptions {
    /** The name the server records; by default the path's base name (or the Blob's / stream's), else `upload.csv`. */
    filename?: string;
}

/** CSV uploads: `client.uploads`. */
export class Uploads {
    readonly #client: Flowctl;

    constructor(client: Flowctl) {
        this.#client = client;
    }

    /**
     * Uploads a CSV file, streamed: a path, a `Readable`, a `Buffer`/`Uint8Array` or a `Blob`. The file is
     * sent chunk by chunk as the connection takes it, never held in memory whole. The same bytes under the
     * same name as an upload the account has answer that upload (nothing new is stored). Not retried; a
     * stream source is also not replayed after a token refresh.
     */
    async create(file: Uploadable, options: UploadCreateOptions = {}): Promise<Upload> {
        const { filename, ...rest } = options;
        const multipart = await multipartFile(file, { field: 'file', filename });
        const headers: Record<string, string> = { ...rest.headers, 'content-type': multipart.contentType };
        if (multipart.length !== undefined) {
            headers['content-length'] = String(multipart.length);
        }

        const res = await this.#client.request({ ...rest, method: 'POST', path: '/api/uploads', headers, body: multipart.body, replayable: multipart.replayable });
        return res.body as Upload;
    }

    /**
     * The account's uploads, newest first. With `sha256` (hex), only uploads of those bytes: whether the
     * server has a file already, asked without sending it.
     */
    list(options: RequestOptions & { sha256?: string } = {}): PagedList<Upload> {
        const { sha256, ...rest } = options;
        return this.#client.list<Upload>({ ...rest, method: 'GET', path: '/api/uploads', query: { sha256 } });
    }

    /** One upload's metadata. */
    async retrieve(uploadId: string, options?: RequestOptions): Promise<Upload> {
        return (await this.#client.request({ ...options, method: 'GET', path: `/api/uploads/${encodeURIComponent(uploadId)}` })).body as Upload;
    }

    /** Deletes an upload and its bytes (409 while a workflow or an unfinished run reads it). */
    async delete(uploadId: string, options?: RequestOptions): Promise<void> {
        await this.#client.request({ ...options, method: 'DELETE', path: `/api/uploads/${encodeURIComponent(uploadId)}` });
    }
}
