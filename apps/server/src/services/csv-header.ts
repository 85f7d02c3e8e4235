import Boom from '@hapi/boom';

// The rules for a CSV's header row, the same whichever reader met it: the upload scanner
// (csv-scan.ts), csv-parse's (csv.ts) and a Google Drive file's (google.ts).

/** Trimmed, BOM dropped, each non-empty and unique: the rules for a header row. */
export const checkHeader = (record: string[]): string[] => {
    const columns = record.map((name) => name.replace(/^\uFEFF/, '').trim());
    const seen = new Map<string, number>();
    for (const [index, name] of columns.entries()) {
        if (name === '') {
            throw Boom.badRequest(`Column ${index + 1} of the header row has no name: every column needs a name in the first row.`);
        }

        const first = seen.get(name);
        if (first !== undefined) {
            throw Boom.badRequest(`The header row names '${name}' twice (columns ${first + 1} and ${index + 1}): column names must be unique.`);
        }

        seen.set(name, index);
    }

    return columns;
};
