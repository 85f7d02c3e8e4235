/** The "Examples:" block that every command's --help ends with. */
export const examples = (...lines: string[]): string => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
