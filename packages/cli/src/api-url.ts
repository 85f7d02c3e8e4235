// One spelling of a server URL, so two spellings of one server compare equal.

/**
 * `text` as a server URL in one spelling (lower-case scheme and host, no default port, no trailing
 * slash), or null when it is not an http(s) URL. Two spellings of one server compare equal.
 */
export const normalizeApiUrl = (text: string): string | null => {
    let url: URL;
    try {
        url = new URL(text.trim());
    } catch {
        return null;
    }

    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password || url.search || url.hash) {
        return null;
    }

    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
};
