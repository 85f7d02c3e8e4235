/** `1 row`, `2 rows`, `1,000 rows`: a count with its noun agreeing. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
