/** The `rel="next"` target of a `Link` header, or null. */
export const nextLinkOf = (link: string | undefined): string | null => {
    if (!link) {
        return null;
    }

    for (const part of link.split(/,(?=\s*<)/)) {
        const match = /^\s*<([^>]*)>(.*)$/.exec(part);
        if (match && /;\s*rel="?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!)) {
            return match[1]!;
        }
    }

    return null;
};

export type PageFetcher<T> = (next: string | null) => Promise<{ items: T[]; next: string | null }>;

/** One page of a list, with the way to the next one. */
export class Page<T> {
    readonly items: T[];
    /** The address of the next page (from the `Link` header), or null on the last page. */
    readonly nextUrl: string | null;
    readonly #fetch: PageFetcher<T>;

    constructor(items: T[], nextUrl: string | null, fetch: PageFetcher<T>) {
        this.items = items;
        this.nextUrl = nextUrl;
        this.#fetch = fetch;
    }

    hasNextPage(): boolean {
        return this.nextUrl !== null;
    }

    /** The next page; throws when this is the last one (check `hasNextPage()`). */
    async getNextPage(): Promise<Page<T>> {
        if (this.nextUrl === null) {
            throw new Error('This is the last page: check hasNextPage() first');
        }

        const { items, next } = await this.#fetch(this.nextUrl);
        return new Page(items, next, this.#fetch);
    }
}

/**
 * A list: `for await (const item of list)` walks every page, following the `Link` header;
 * `await list.firstPage()` fetches one page only. Nothing is requested until one of them is used.
 */
export class PagedList<T> implements AsyncIterable<T> {
    readonly #fetch: PageFetcher<T>;

    constructor(fetch: PageFetcher<T>) {
        this.#fetch = fetch;
    }

    /** The first page only. */
    async firstPage(): Promise<Page<T>> {
        const { items, next } = await this.#fetch(null);
        return new Page(items, next, this.#fetch);
    }

    /** Every page in turn. */
    async *pages(): AsyncGenerator<Page<T>, void, undefined> {
        let page: Page<T> | null = await this.firstPage();
        while (page) {
            yield page;
            page = page.hasNextPage() ? await page.getNextPage() : null;
        }
    }

    async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
        for await (const page of this.pages()) {
            yield* page.items;
        }
    }

    /** Every item of every page in one array. */
    async toArray(): Promise<T[]> {
        const all: T[] = [];
        for await (const item of this) {
            all.push(item);
        }

        return all;
    }
}
