import Fs from 'node:fs/promises';
import Path from 'node:path';

import type { TestAccount } from './fixtures.js';
import type { TestServer } from './harness.js';

export interface UploadResponse {
    status: number;
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly, like harness.request's json
    json: any;
}

/** POSTs `content` as the file of a multipart form, through fetch over the server's real socket. */
export const uploadCsv = async (
    t: TestServer,
    account: TestAccount,
    content: string | Uint8Array,
    options: { filename?: string; field?: string; extra?: Record<string, string> } = {}
): Promise<UploadResponse> => {
    const form = new FormData();
    for (const [name, value] of Object.entries(options.extra ?? {})) {
        form.append(name, value);
    }

    form.append(options.field ?? 'file', new Blob([content] as ConstructorParameters<typeof Blob>[0], { type: 'text/csv' }), options.filename ?? 'data.csv');
    const res = await fetch(`${t.url}/api/uploads`, { method: 'POST', body: form, headers: account.headers });
    const text = await res.text();
    t.contract!.check({ method: 'POST', url: '/api/uploads', status: res.status, headers: Object.fromEntries(res.headers), body: text });
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
};

/** Files in the server's upload directory (the files blob store), partial ones included. */
export const storedBlobFiles = async (t: TestServer): Promise<string[]> => {
    const dir = Path.join(t.config.dataDir, 'uploads');
    const names = await Fs.readdir(dir, { recursive: true }).catch(() => [] as string[]);
    const files: string[] = [];
    for (const name of names) {
        if ((await Fs.stat(Path.join(dir, name))).isFile()) {
            files.push(name);
        }
    }

    return files;
};

/** The smallest valid graph: one TRIGGER. */
export const triggerOnly = () => ({ nodes: [{ id: 'start', type: 'TRIGGER', data: {} }], edges: [] });

/** TRIGGER -> DATA_SOURCE(uploadId). */
export const readsUpload = (uploadId: string) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } }
    ],
    edges: [{ source: 'start', target: 'people' }]
});
