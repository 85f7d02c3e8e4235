// upload <file.csv>, uploads list|get|rm.
import Fs from 'node:fs';

import { client } from '../client.js';
import type { Ctx, Register } from '../context.js';
import { usageError } from '../errors.js';
import { emit, green, table } from '../io.js';
import { allOf, orNotFound } from '../resolve.js';
import { plural } from '../plural.js';
import { inline } from '../visible.js';
import { flowctlCommand } from '../next-command.js';
import { examples } from './help.js';

const notFound = (ctx: Ctx, id: string) => [`upload '${id}' not found`, `see your uploads: ${flowctlCommand(ctx, 'uploads list')}`] as const;

export const register: Register = (program, ctx) => {
    program
        .command('upload')
        .description('upload a CSV file (UTF-8, header row); prints its uploadId')
        .argument('<file>', 'the CSV file')
        .addHelpText('after', examples('flowctl upload examples/contacts.csv', 'flowctl upload examples/contacts.csv --json'))
        .action(async (file: string) => {
            const c = ctx();
            if (!Fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
                throw usageError(`no such file: ${file}`, 'pass the path of a CSV file');
            }

            const api = await client(c);
            const { uploadWithProgress } = await import('../uploads.js');
            const upload = await uploadWithProgress(c, api, file);
            emit(c.io, upload, () => [
                `${green(c.io, '✓')} uploaded ${inline(`${upload.filename}: ${plural(upload.rows, 'row')}, columns ${upload.columns.join(', ')}`)}`,
                `uploadId ${upload.uploadId}`
            ]);
        });

    const uploads = program.command('uploads').description('list, show and remove uploaded CSV files')
        .addHelpText('after', examples('flowctl uploads list', 'flowctl uploads get upl_abc'));

    uploads
        .command('list')
        .alias('ls')
        .description('your uploads, newest first')
        .addHelpText('after', examples('flowctl uploads list', 'flowctl uploads list -o json'))
        .action(async () => {
            const c = ctx();
            const api = await client(c);
            const all = await allOf(api.uploads.list());
            emit(c.io, all, () =>
                all.length === 0
                    ? `no uploads yet: ${flowctlCommand(c, 'upload <file.csv>')}`
                    : table([['ID', 'FILENAME', 'ROWS', 'CREATED'], ...all.map((u) => [u.uploadId, u.filename, String(u.rows), u.createdAt])])
            );
        });

    uploads
        .command('get')
        .description("an upload's rows, columns and size")
        .addHelpText('after', examples('flowctl uploads get upl_abc'))
        .argument('<uploadId>')
        .action(async (uploadId: string) => {
            const c = ctx();
            const api = await client(c);
            const upload = await orNotFound(api.uploads.retrieve(uploadId), ...notFound(c, uploadId));
            emit(c.io, upload, () => [inline(`${upload.uploadId}  ${upload.filename}`), inline(`${plural(upload.rows, 'row')} · ${plural(upload.sizeBytes, 'byte')} · created ${upload.createdAt}`), `columns: ${inline(upload.columns.join(', '))}`]);
        });

    uploads
        .command('rm')
        .alias('delete')
        .description('delete an upload (refused while a workflow uses it)')
        .addHelpText('after', examples('flowctl uploads rm upl_abc'))
        .argument('<uploadId>')
        .action(async (uploadId: string) => {
            const c = ctx();
            const api = await client(c);
            await orNotFound(api.uploads.delete(uploadId), ...notFound(c, uploadId));
            emit(c.io, { deleted: true, uploadId }, () => `${green(c.io, '✓')} deleted ${uploadId}`);
        });
};
