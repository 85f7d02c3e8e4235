/** @internal `If-Match` for a workflow revision: a number becomes its ETag `"r<n>"`, a string is sent as it is. */
export const ifMatchHeader = (headers: Record<string, string> | undefined, ifMatch: number | string | undefined): Record<string, string> | undefined =>
    ifMatch === undefined ? headers : { ...headers, 'if-match': typeof ifMatch === 'number' ? `"r${ifMatch}"` : ifMatch };
