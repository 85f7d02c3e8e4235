import Boom from '@hapi/boom';

// Spreadsheets in many locales save "CSV" separated by semicolons (Excel in France, Germany, Brazil…)
// and some tools save tab-separated text as .csv. Read with commas, such a file is one column called
// `name;email;age`, and every template reading `name` renders empty (issue 28). Such files are
// refused, saying how to save them, rather than read with their separator: the same locales write
// decimal commas (`1,5`), which would become text, so `score > 1` would quietly filter wrong. One
// separator for every upload keeps what a workflow reads the same as what the user saw.

/** How much of the file's start is looked at: enough lines to see the rows agree, never more than this. */
export const SEPARATOR_SAMPLE_BYTES = 64 * 1024;
/** Data lines compared with the header. */
export const SEPARATOR_SAMPLE_LINES = 20;

const SEMICOLON = 0x3b;
const TAB = 0x09;
const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

interface Line {
    /** 1-based line where the record starts. */
    line: number;
    commas: number;
    semicolons: number;
    tabs: number;
    blank: boolean;
    start: number;
    end: number;
}

const NAMES: Record<number, string> = { [SEMICOLON]: "semicolons (';')", [TAB]: 'tabs' };

/** Records of `head` outside quotes (a quoted line break stays in its record); the last one only if `complete`. */
const records = (head: Buffer, complete: boolean): Line[] => {
    const found: Line[] = [];
    const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    let current: Line = { line: 1, commas: 0, semicolons: 0, tabs: 0, blank: true, start, end: start };
    let line = 1;
    let quoted = false;
    for (let at = start; at < head.length; at++) {
        const byte = head[at]!;
        if (byte === QUOTE) {
            quoted = !quoted;
            current.blank = false;
            continue;
        }

        const lineBreak = byte === LF ? !(at > 0 && head[at - 1] === CR) : byte === CR;
        if (lineBreak) {
            line += 1;
        }

        if (quoted) {
            continue;
        }

        if (byte === CR || byte === LF) {
            if (lineBreak) {
                current.end = at;
                found.push(current);
                current = { line, commas: 0, semicolons: 0, tabs: 0, blank: true, start: at + 1, end: at + 1 };
            } else {
                current.start = at + 1;
            }

            continue;
        }

        if (byte === COMMA) current.commas += 1;
        else if (byte === SEMICOLON) current.semicolons += 1;
        else if (byte === TAB) current.tabs += 1;
        else if (byte !== 0x20) current.blank = false;
    }

    if (complete) {
        current.end = head.length;
        found.push(current);
    }

    return found.filter((record) => !record.blank || record.commas + record.semicolons + record.tabs > 0);
};

const count = (record: Line, separator: number): number => (separator === TAB ? record.tabs : record.semicolons);

const shownHeader = (head: Buffer, record: Line): string => {
    const text = head.subarray(record.start, record.end).toString('utf8').replaceAll('\t', '\\t');
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

const SAVE_WITH_COMMAS =
    'Save it comma-separated (in Excel: "CSV UTF-8 (Comma delimited)"; in LibreOffice: Field delimiter ",", Character set UTF-8) and upload it again.';

/**
 * The start of a CSV (`head`; `complete` when it is the whole file) says it is separated by semicolons
 * or tabs: a header with no comma, split by one of them, and data lines that mostly contain it too.
 * Returns the 400 to answer, or null to read the file as usual.
 */
export const separatorProblem = (head: Buffer, complete: boolean): Boom.Boom | null => {
    const [header, ...rows] = records(head, complete);
    if (!header || header.commas > 0 || header.semicolons + header.tabs === 0) {
        return null;
    }

    const separator = header.tabs > header.semicolons ? TAB : SEMICOLON;
    const columns = count(header, separator) + 1;
    const sample = rows.slice(0, SEPARATOR_SAMPLE_LINES);
    const agreeing = sample.filter((row) => count(row, separator) === columns - 1).length;
    const what = `The file is separated by ${NAMES[separator]}, not commas: read as CSV its header '${shownHeader(head, header)}' would be one column`;
    if (agreeing === sample.length) {
        return Boom.badRequest(`${what}, not ${columns}. ${SAVE_WITH_COMMAS}`);
    }

    // A one-column file whose header happens to hold a semicolon, and whose rows mostly do not, is a CSV.
    if (sample.filter((row) => count(row, separator) > 0).length * 2 <= sample.length) {
        return null;
    }

    const odd = sample.find((row) => count(row, separator) !== columns - 1)!;
    return Boom.badRequest(
        `${what}, and its line ${odd.line} has ${count(odd, separator) + 1} values where the header has ${columns}. ` +
            `Give every line one value per column, then ${SAVE_WITH_COMMAS.charAt(0).toLowerCase()}${SAVE_WITH_COMMAS.slice(1)}`
    );
};
