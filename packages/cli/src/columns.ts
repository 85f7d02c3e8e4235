// Column names checked before anything is sent (issue 28): `{{item.nmae}}` or a FILTER's `subscribd`
// is reported at its line and column in the YAML, against the header of the CSV a DATA_SOURCE's
// `file:` names (read here, on this machine) or of the upload its `uploadId` names (asked of the
// server, a read). The rules are the engine's checkColumns(), the same the server applies.
import Fs from 'node:fs';

import type { ColumnSource, Graph } from '@flowctl/engine';

/** A header longer than this is not looked for: the server says what is wrong with such a file. */
const HEADER_BYTES = 256 * 1024;

/**
 * The column names of a CSV's header row as the server reads them (BOM dropped, each trimmed; quotes,
 * `""` and quoted line breaks understood), or null when there is no header to read.
 */
export const csvHeader = (text: string): string[] | null => {
    const names: string[] = [];
    let field = '';
    let quoted = false;
    let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    // Blank lines before the header are skipped, as the server skips them.
    while (i < text.length && (text[i] === '\n' || text[i] === '\r')) i++;
    for (; i < text.length; i++) {
        const char = text[i]!;
        if (quoted) {
            if (char !== '"') field += char;
            else if (text[i + 1] === '"') field += text[++i];
            else quoted = false;
        } else if (char === '"') {
            quoted = true;
        } else if (char === ',') {
            names.push(field.trim());
            field = '';
        } else if (char === '\n' || char === '\r') {
            names.push(field.trim());
            return names;
        } else {
            field += char;
        }
    }

    if (quoted) return null;
    names.push(field.trim());
    return names.length === 1 && names[0] === '' ? null : names;
};

/** The header of the CSV file at `path`, or null when it cannot be read here (the server will say why). */
export const fileHeader = (path: string): string[] | null => {
    let fd: number | undefined;
    try {
        fd = Fs.openSync(path, 'r');
        const buffer = Buffer.alloc(HEADER_BYTES);
        const read = Fs.readSync(fd, buffer, 0, HEADER_BYTES, 0);
        const header = csvHeader(buffer.subarray(0, read).toString('utf8'));
        // One column named like `name;email`: a file separated by semicolons or tabs, which the server
        // refuses with what to do about it; its "column" is no help here.
        return header && header.length === 1 && /[;\t]/.test(header[0]!) ? null : header;
    } catch {
        return null;
    } finally {
        if (fd !== undefined) Fs.closeSync(fd);
    }
};

export interface ColumnMistake {
    /** An engine path, `nodes[3].data.subject`. */
    path: string;
    field: string;
    message: string;
}

/** checkColumns() with the headers known for some DATA_SOURCE nodes, by node id. */
export const columnMistakes = async (graph: Graph, headers: ReadonlyMap<string, ColumnSource>): Promise<ColumnMistake[]> => {
    const { checkColumns } = await import('@flowctl/engine');
    return checkColumns(graph, (node) => headers.get(node.id) ?? null).map(({ path, field, message }) => ({ path, field, message }));
};

/** Where in a YAML scalar's source the name is written: `{{ item.nmae }}` in a template, the bare name in a filter. */
export const namePattern = (path: string, field: string): RegExp => {
    const name = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return path.endsWith('.expr') ? new RegExp(`(?<![\\w.'"])${name}(?![\\w'"])`) : new RegExp(`\\{\\{\\s*item\\s*\\.\\s*${name}\\s*\\}\\}`);
};
