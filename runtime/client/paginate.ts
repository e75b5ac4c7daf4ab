/**
 * Paging: every item of a paginated list method, page after page, within limits a hostile server
 * cannot stretch. Revision-independent; copied verbatim into generated output.
 */

const DEFAULT_MAX_PAGES = 1000;

/**
 * Walks the pages of a paginated list method and yields the items of each, following the cursor
 * each page gives in its `next` field (`null`: one page). A hostile or broken server could issue
 * cursors for ever: the walk stops (with a line on `log`) at a cursor it has already seen and
 * after `maxPages` pages.
 */
export async function* paginate<I>(
  fetchPage: (cursor: string | undefined) => Promise<Record<string, unknown>>,
  items: string,
  next: string | null,
  limits: { maxPages?: number; log?: (message: string) => void } = {},
): AsyncGenerator<I, void, undefined> {
  const maxPages = limits.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    const list = page[items];
    if (Array.isArray(list)) yield* list as I[];
    const following = next === null ? undefined : page[next];
    if (typeof following !== "string") return;
    if (seen.has(following)) {
      limits.log?.(`mcp client: stopped paging ${items}: the server repeated a cursor`);
      return;
    }
    if (pages >= maxPages) {
      limits.log?.(`mcp client: stopped paging ${items} after ${maxPages} pages`);
      return;
    }
    seen.add(following);
    cursor = following;
  }
}
