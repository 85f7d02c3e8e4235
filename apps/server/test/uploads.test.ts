import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAccount, type TestAccount } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { readsUpload, storedBlobFiles, uploadCsv } from './upload-fixtures.js';

describe('uploads', () => {
    let t: TestServer;
    let account: TestAccount;
    beforeAll(async () => {
        t = await startTestServer();
        account = await createAccount(t);
    });
    afterAll(() => t.close());

    /** Runs a rejected upload on a fresh account and checks that it left neither a row nor bytes. */
    const rejected = async (content: string | Uint8Array, options: Parameters<typeof uploadCsv>[3] = {}) => {
        const fresh = await createAccount(t);
        const blobsBefore = await storedBlobFiles(t);
        const res = await uploadCsv(t, fresh, content, options);
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: fresh.headers });
        expect(list.json).toEqual([]);
        expect(await storedBlobFiles(t)).toEqual(blobsBefore);
        return res;
    };

    it('stores a CSV and answers 201 with its rows and columns, over a real socket', async () => {
        const csv = 'name,email,age\nAda,ada@example.test,36\nGrace,grace@example.test,45\n';
        const res = await uploadCsv(t, account, csv, { filename: 'people.csv' });
        expect(res.status).toBe(201);
        expect(res.json).toEqual({
            uploadId: expect.stringMatching(/^upl_[0-9a-z]{20}$/),
            filename: 'people.csv',
            rows: 2,
            columns: ['name', 'email', 'age'],
            sizeBytes: Buffer.byteLength(csv),
            sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
            createdAt: expect.any(String)
        });
        expect(new Date(res.json.createdAt).toISOString()).toBe(res.json.createdAt);

        const got = await t.request({ method: 'GET', url: `/api/uploads/${res.json.uploadId}`, headers: account.headers });
        expect(got.statusCode).toBe(200);
        expect(got.json).toEqual(res.json);
        expect(await storedBlobFiles(t)).toContain(res.json.uploadId);
    });

    it('lists uploads newest first', async () => {
        const owner = await createAccount(t);
        const first = await uploadCsv(t, owner, 'a\n1\n', { filename: 'first.csv' });
        const second = await uploadCsv(t, owner, 'b\n2\n', { filename: 'second.csv' });
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: owner.headers });
        expect(list.statusCode).toBe(200);
        expect(list.json.map((u: { uploadId: string }) => u.uploadId)).toEqual([second.json.uploadId, first.json.uploadId]);
    });

    it('handles a BOM, CRLF line ends, quoted line breaks and quoted commas', async () => {
        const csv = '\uFEFF"name","note"\r\n"Ada","likes, commas"\r\n"Bob","line one\r\nline two"\r\nCy,"say ""hi"""\r\n';
        const res = await uploadCsv(t, account, csv);
        expect(res.status).toBe(201);
        expect(res.json).toMatchObject({ rows: 3, columns: ['name', 'note'] });

        const rows = await t.app.services.uploads.readUploadRows(account.accountId, res.json.uploadId);
        expect(rows).toEqual([
            { name: 'Ada', note: 'likes, commas' },
            { name: 'Bob', note: 'line one\r\nline two' },
            { name: 'Cy', note: 'say "hi"' }
        ]);
    });

    it('ends a row at every CRLF, LF and lone CR, in any mixture, keeping quoted line breaks as they are', async () => {
        const cases: Array<{ csv: string; columns: string[]; rows: object[] }> = [
            // The header ends LF, the rows CRLF: no value may keep the CR.
            { csv: 'name,email\nAda,ada@example.com\r\nBob,bob@example.com\r\n', columns: ['name', 'email'], rows: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Bob', email: 'bob@example.com' }] },
            { csv: 'a\r\n1\r2\n3', columns: ['a'], rows: [{ a: 1 }, { a: 2 }, { a: 3 }] },
            { csv: 'a,b\r\n1,2\n3,4\n', columns: ['a', 'b'], rows: [{ a: 1, b: 2 }, { a: 3, b: 4 }] },
            { csv: 'a,b\n"x\r\ny","p\rq"\r\n"m\nn",z\r', columns: ['a', 'b'], rows: [{ a: 'x\r\ny', b: 'p\rq' }, { a: 'm\nn', b: 'z' }] }
        ];
        for (const { csv, columns, rows } of cases) {
            const uploaded = await uploadCsv(t, account, csv);
            expect(uploaded.status, csv).toBe(201);
            expect(uploaded.json, csv).toMatchObject({ rows: rows.length, columns });
            expect(await t.app.services.uploads.readUploadRows(account.accountId, uploaded.json.uploadId), csv).toEqual(rows);
        }
    });

    it('names the right line of a ragged row in a file of mixed line endings', async () => {
        const res = await rejected('a,b\r\n1,2\n"multi\r\nline",2\r3\n4,5\n');
        expect(res.status).toBe(400);
        expect(res.json.message).toBe(
            'The row ending on line 5 has 1 fields but the header has 2: every row needs one value per column (quote values that contain commas).'
        );
    });

    it('keeps header names verbatim after trimming, and accepts a header with no rows', async () => {
        const res = await uploadCsv(t, account, '  First Name , e-mail address,Ünïcödé 📧\n');
        expect(res.status).toBe(201);
        expect(res.json).toMatchObject({ rows: 0, columns: ['First Name', 'e-mail address', 'Ünïcödé 📧'] });
        expect(await t.app.services.uploads.readUploadRows(account.accountId, res.json.uploadId)).toEqual([]);
    });

    it('skips blank lines and rows whose cells are all blank', async () => {
        const res = await uploadCsv(t, account, '\n a , b \n1,2\n\n,\n , \n3,4\n\n');
        expect(res.json).toMatchObject({ rows: 2, columns: ['a', 'b'] });
        expect(await t.app.services.uploads.readUploadRows(account.accountId, res.json.uploadId)).toEqual([
            { a: 1, b: 2 },
            { a: 3, b: 4 }
        ]);
    });

    it('types every cell when the run worker reads the rows back', async () => {
        const csv = 'id,score,active,note,zip,phone,big\n1,3.5,TRUE,,007,+4412345,12345678901234567890\n2,-4,false,hello,12345, ,0\n';
        const res = await uploadCsv(t, account, csv);
        const rows = await t.app.services.uploads.readUploadRows(account.accountId, res.json.uploadId);
        expect(rows).toEqual([
            { id: 1, score: 3.5, active: true, note: null, zip: '007', phone: '+4412345', big: '12345678901234567890' },
            { id: 2, score: -4, active: false, note: 'hello', zip: 12345, phone: null, big: 0 }
        ]);
    });

    it('streams a multi-megabyte file through and counts every row', async () => {
        const lines = ['id,email,amount'];
        for (let i = 0; i < 60_000; i++) {
            lines.push(`${i},user${i}@example.test,${(i * 1.25).toFixed(2)}`);
        }

        const csv = `${lines.join('\n')}\n`;
        const res = await uploadCsv(t, account, csv);
        expect(res.status).toBe(201);
        expect(res.json).toMatchObject({ rows: 60_000, sizeBytes: Buffer.byteLength(csv) });
        const rows = await t.app.services.uploads.readUploadRows(account.accountId, res.json.uploadId);
        expect(rows).toHaveLength(60_000);
        expect(rows[59_999]).toEqual({ id: 59_999, email: 'user59999@example.test', amount: 74_998.75 });
    });

    it('cleans the file name: no client path, no control characters', async () => {
        const res = await uploadCsv(t, account, 'a\n1\n', { filename: 'C:\\Users\\me\\Données 📊.csv' });
        expect(res.json.filename).toBe('Données 📊.csv');
    });

    // Issue 26: a name is shown in lists and messages, where an escape sequence or a bidi override would
    // forge or reorder text. Refused as workflow names are, rather than stripped: stripping ESC left
    // `a[2J<U+202E>exe.csv` stored, whose override still showed `a[2Jvsc.exe`.
    it.each([
        ['ESC and a right-to-left override', 'a\u001b[2J\u202Eexe.csv', 'U+001B'],
        ['a right-to-left override', 'invoice\u202Egpj.csv', 'U+202E'],
        ['a bidi isolate', 'a\u2066b\u2069.csv', 'U+2066'],
        ['a zero-width space', 'zero\u200Bwidth.csv', 'U+200B'],
        ['a C1 control (CSI)', 'c1\u009B2J.csv', 'U+009B'],
        ['a bell', 'bell\u0007.csv', 'U+0007'],
        ['a tab', 'tab\t.csv', 'U+0009'],
        ['a line separator', 'two\u2028lines.csv', 'U+2028'],
        ['a Hangul filler, which shows as blank space', 'pay\u3164roll.csv', 'U+3164'],
        ['a combining grapheme joiner', 'cgj\u034F.csv', 'U+034F']
    ])('refuses a file name with %s, naming the field and the character; keeps nothing', async (_what, filename, code) => {
        const res = await rejected('a\n1\n', { filename });
        expect(res.status).toBe(400);
        expect(res.json.message).toContain("'filename'");
        expect(res.json.message).toContain(code);
        expect(res.json.message).toMatch(/rename the file/);
    });

    it('refuses the same characters in an RFC 5987 filename*', async () => {
        const body = `--XyZ\r\nContent-Disposition: form-data; name="file"; filename="plain.csv"; filename*=UTF-8''a%1B%5B2J%E2%80%AEexe.csv\r\n\r\na,b\n1,2\n\r\n--XyZ--\r\n`;
        const res = await t.request({
            method: 'POST',
            url: '/api/uploads',
            headers: { ...account.headers, 'content-type': 'multipart/form-data; boundary=XyZ' },
            payload: body
        });
        expect(res.statusCode).toBe(400);
        expect(res.json.message).toMatch(/'filename'.*U\+001B/);
    });

    it('keeps joiners that words and emoji need (ZWNJ, ZWJ, variation selectors)', async () => {
        for (const filename of ['نامه\u200Cها.csv', '👩\u200D💻 ❤\uFE0F.csv']) {
            const res = await uploadCsv(t, account, 'a\n1\n', { filename });
            expect(res.status, JSON.stringify(res.json)).toBe(201);
            expect(res.json.filename).toBe(filename);
        }
    });

    it('shows a name stored by an earlier version with such characters visibly, in get and list', async () => {
        const owner = await createAccount(t);
        const created = await uploadCsv(t, owner, 'a\n1\n', { filename: 'plain.csv' });
        // What the earlier version stored for `a<ESC>[2J<U+202E>exe.csv`: ESC removed, the rest kept.
        await t.app.ctx.db.query('UPDATE uploads SET filename = $2 WHERE id = $1', [created.json.uploadId, 'a[2J\u202Eexe\u0085.csv']);

        const one = await t.request({ method: 'GET', url: `/api/uploads/${created.json.uploadId}`, headers: owner.headers });
        expect(one.json.filename).toBe('a[2J<U+202E>exe<U+0085>.csv');
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: owner.headers });
        expect(list.json.map((u: { filename: string }) => u.filename)).toEqual(['a[2J<U+202E>exe<U+0085>.csv']);
    });

    it('ignores other form fields beside the file', async () => {
        const res = await uploadCsv(t, account, 'a\n1\n', { extra: { description: 'monthly export' } });
        expect(res.status).toBe(201);
    });

    it('rejects Latin-1 bytes with the byte offset and line, keeping nothing', async () => {
        const res = await rejected(Buffer.from('name,city\nJosé,Zürich\n', 'latin1'));
        expect(res.status).toBe(400);
        expect(res.json.message).toContain('not UTF-8: byte 0xE9 at offset 13 (line 2)');
        expect(res.json.message).toContain('Save the file as UTF-8');
    });

    it('rejects UTF-16 (NUL bytes) as not a UTF-8 CSV', async () => {
        const utf16 = Buffer.from('\uFEFFname\n', 'utf16le');
        const res = await rejected(utf16);
        expect(res.status).toBe(400);
        expect(res.json.message).toMatch(/NUL byte at offset 3.*UTF-16/);
    });

    it('rejects an empty file and a file of blank lines', async () => {
        for (const content of ['', '\n\r\n\n']) {
            const res = await rejected(content);
            expect(res.status).toBe(400);
            expect(res.json.message).toBe('The file is empty: a CSV needs a header row naming its columns, then one line per row.');
        }
    });

    it('rejects duplicate and empty header names', async () => {
        const duplicate = await rejected('email,name, email\nx,y,z\n');
        expect(duplicate.status).toBe(400);
        expect(duplicate.json.message).toBe("The header row names 'email' twice (columns 1 and 3): column names must be unique.");

        const empty = await rejected('email,,name\nx,y,z\n');
        expect(empty.status).toBe(400);
        expect(empty.json.message).toBe('Column 2 of the header row has no name: every column needs a name in the first row.');
    });

    it('rejects a ragged row, naming its line', async () => {
        const res = await rejected('a,b\n1,2\n"multi\nline",2\n3\n4,5\n');
        expect(res.status).toBe(400);
        expect(res.json.message).toBe(
            'The row ending on line 5 has 1 fields but the header has 2: every row needs one value per column (quote values that contain commas).'
        );
    });

    it('rejects a quote that is never closed', async () => {
        const res = await rejected('a,b\n1,"open\n2,3\n');
        expect(res.status).toBe(400);
        expect(res.json.message).toMatch(/^The file ends inside a quoted value/);
    });

    it('refuses a semicolon-separated file, saying how to save it with commas, keeping nothing', async () => {
        const saveAs = 'Save it comma-separated (in Excel: "CSV UTF-8 (Comma delimited)"; in LibreOffice: Field delimiter ",", Character set UTF-8) and upload it again.';
        const plain = await rejected('name;email;age\r\nAda;ada@example.test;36\r\nBob;bob@example.test;1,5\r\n');
        expect(plain.status).toBe(400);
        expect(plain.json.message).toBe(`The file is separated by semicolons (';'), not commas: read as CSV its header 'name;email;age' would be one column, not 3. ${saveAs}`);

        // Quoted values (which read with commas would fail on line 1), a BOM, and only a header.
        const quoted = await rejected('\uFEFF"name";"e;mail"\n"Smith, Ann";"ann@example.test"\n');
        expect(quoted.json.message).toMatch(/^The file is separated by semicolons \(';'\), not commas: read as CSV its header '"name";"e;mail"' would be one column, not 2\./);
        expect((await rejected('name;email\n')).json.message).toMatch(/one column, not 2\./);
    });

    it('refuses a tab-separated file, and one whose rows disagree with its semicolon header, naming the line', async () => {
        const tabs = await rejected('name\temail\tage\nAda\tada@example.test\t36\n');
        expect(tabs.status).toBe(400);
        expect(tabs.json.message).toMatch(/^The file is separated by tabs, not commas: read as CSV its header 'name\\temail\\tage' would be one column, not 3\. Save it comma-separated/);

        const ragged = await rejected('name;email;age\nAda;ada@example.test;36\nBob;bob@example.test\nCy;cy@example.test;51\n');
        expect(ragged.json.message).toMatch(/^The file is separated by semicolons .* one column, and its line 3 has 2 values where the header has 3\. Give every line one value per column, then save it comma-separated/);
    });

    it('still reads a comma CSV with semicolons or tabs in its values, and a one-column file whose header has a semicolon', async () => {
        const mixed = await uploadCsv(t, account, 'name,note\nAda,"a;b;c"\nBob,x\ty\n');
        expect(mixed.json).toMatchObject({ rows: 2, columns: ['name', 'note'] });
        const single = await uploadCsv(t, account, 'Notes; internal\nfirst note\nsecond note\nthird; with one\n');
        expect(single.status).toBe(201);
        expect(single.json).toMatchObject({ rows: 3, columns: ['Notes; internal'] });
    });

    it('rejects a form without a field named file, naming the fields it has', async () => {
        const res = await rejected('a\n1\n', { field: 'upload' });
        expect(res.status).toBe(400);
        expect(res.json.message).toBe("The form has no field named 'file' (it has 'upload'): send the file in a multipart/form-data field named 'file'.");
    });

    it('rejects two files in one request and keeps neither', async () => {
        const fresh = await createAccount(t);
        const form = new FormData();
        form.append('file', new Blob(['a\n1\n']), 'one.csv');
        form.append('file', new Blob(['b\n2\n']), 'two.csv');
        const res = await fetch(`${t.url}/api/uploads`, { method: 'POST', body: form, headers: fresh.headers });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { message: string }).message).toMatch(/more than one 'file' field/);
        const list = await t.request({ method: 'GET', url: '/api/uploads', headers: fresh.headers });
        expect(list.json).toEqual([]);
    });

    it('answers 415 to a JSON body and 400 to a multipart body without a boundary', async () => {
        const json = await t.request({ method: 'POST', url: '/api/uploads', headers: account.headers, payload: { file: 'a,b\n1,2\n' } });
        expect(json.statusCode).toBe(415);
        expect(json.json.message).toBe("Send the CSV as multipart/form-data with the file in a field named 'file' (got application/json).");

        const noBoundary = await t.request({
            method: 'POST',
            url: '/api/uploads',
            headers: { ...account.headers, 'content-type': 'multipart/form-data' },
            payload: 'x'
        });
        expect(noBoundary.statusCode).toBe(400);
    });

    it('rejects a body cut off before its closing boundary', async () => {
        const body = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na,b\n1,2\n';
        const res = await t.request({
            method: 'POST',
            url: '/api/uploads',
            headers: { ...account.headers, 'content-type': 'multipart/form-data; boundary=XyZ' },
            payload: body
        });
        expect(res.statusCode).toBe(400);
        expect(res.json.message).toMatch(/closing boundary is missing/);
    });

    it('needs a token', async () => {
        const res = await t.request({ method: 'GET', url: '/api/uploads' });
        expect(res.statusCode).toBe(401);
    });

    it('deletes an upload and its bytes; 404 afterwards', async () => {
        const created = await uploadCsv(t, account, 'a\n1\n');
        const { uploadId } = created.json;
        const del = await t.request({ method: 'DELETE', url: `/api/uploads/${uploadId}`, headers: account.headers });
        expect(del.statusCode).toBe(204);
        expect(del.payload).toBe('');
        expect(await storedBlobFiles(t)).not.toContain(uploadId);

        const again = await t.request({ method: 'DELETE', url: `/api/uploads/${uploadId}`, headers: account.headers });
        expect(again.statusCode).toBe(404);
        const get = await t.request({ method: 'GET', url: `/api/uploads/${uploadId}`, headers: account.headers });
        expect(get.statusCode).toBe(404);
        await expect(t.app.services.uploads.readUploadRows(account.accountId, uploadId)).rejects.toThrow(`Upload '${uploadId}' not found`);
    });

    it('refuses to delete an upload a workflow reads, naming the workflow', async () => {
        const created = await uploadCsv(t, account, 'a\n1\n');
        const { uploadId } = created.json;
        const wf = await t.request({ method: 'POST', url: '/api/workflows', headers: account.headers, payload: { name: 'Reads it', graph: readsUpload(uploadId) } });
        expect(wf.statusCode).toBe(201);

        const del = await t.request({ method: 'DELETE', url: `/api/uploads/${uploadId}`, headers: account.headers });
        expect(del.statusCode).toBe(409);
        expect(del.json.message).toContain(`'Reads it' (${wf.json.workflowId})`);

        await t.request({ method: 'DELETE', url: `/api/workflows/${wf.json.workflowId}`, headers: account.headers });
        const retry = await t.request({ method: 'DELETE', url: `/api/uploads/${uploadId}`, headers: account.headers });
        expect(retry.statusCode).toBe(204);
    });

    it('refuses to delete an upload that a run not yet finished will read, after its workflow stopped reading it', async () => {
        // An API-only process: no worker takes the run, so it stays PENDING.
        const api = await startTestServer({ config: { role: 'api' } });
        try {
            const owner = await createAccount(api);
            const old = (await uploadCsv(api, owner, 'a\n1\n')).json.uploadId;
            const next = (await uploadCsv(api, owner, 'a\n2\n')).json.uploadId;
            const wf = await api.request({ method: 'POST', url: '/api/workflows', headers: owner.headers, payload: { name: 'Moves on', graph: readsUpload(old) } });
            const run = await api.request({ method: 'POST', url: `/api/workflows/${wf.json.workflowId}/run`, headers: owner.headers });
            expect(run.statusCode).toBe(202);
            const patch = await api.request({ method: 'PATCH', url: `/api/workflows/${wf.json.workflowId}`, headers: owner.headers, payload: { graph: readsUpload(next) } });
            expect(patch.statusCode).toBe(200);

            const del = await api.request({ method: 'DELETE', url: `/api/uploads/${old}`, headers: owner.headers });
            expect(del.statusCode).toBe(409);
            expect(del.json.message).toBe(
                `Upload '${old}' is read by unfinished run ${run.json.runId} (workflow ${wf.json.workflowId}): wait for them to finish or cancel them first.`
            );

            const cancel = await api.request({ method: 'POST', url: `/api/workflows/runs/${run.json.runId}/cancel`, headers: owner.headers });
            expect(cancel.json.status).toBe('CANCELLED');
            expect((await api.request({ method: 'DELETE', url: `/api/uploads/${old}`, headers: owner.headers })).statusCode).toBe(204);
        } finally {
            await api.close();
        }
    });
});
