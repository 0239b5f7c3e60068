/**
 * A list screen's page, page size and keyword in the URL (`?page=3&size=50&q=京A`), so a reload, a
 * shared link or a tab switch comes back to the same rows. Values that are not a page, not one of
 * the sizes offered or too long are dropped (the defaults apply), never an error. Other search
 * params of the URL are kept as they are.
 */
import { readSession, writeSession } from '../session/storage.ts';
import { session } from '../session/store.ts';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListQuery {
  current: number;
  size: number;
  /** Trimmed; '' for none. */
  keyword: string;
}

export const LIST_PARAMS = { current: 'page', size: 'size', keyword: 'q' } as const;
/** Longer keywords are cut: no name in the console is longer, and a URL stays readable. */
export const KEYWORD_MAX = 100;
/** Beyond any list the console holds (100 a page × 100,000 pages); the list steps back to its last page anyway. */
const PAGE_MAX = 100_000;

/** The list state a search string asks for; what is missing or invalid is left out. */
export function readListSearch(search: string): Partial<ListQuery> {
  const params = new URLSearchParams(search);
  const out: Partial<ListQuery> = {};
  const page = params.get(LIST_PARAMS.current);
  if (page !== null && /^\d{1,6}$/.test(page) && Number(page) >= 1 && Number(page) <= PAGE_MAX) out.current = Number(page);
  const size = params.get(LIST_PARAMS.size);
  if (size !== null && /^\d+$/.test(size) && (PAGE_SIZES as readonly number[]).includes(Number(size))) out.size = Number(size);
  const keyword = params.get(LIST_PARAMS.keyword);
  if (keyword !== null && keyword.trim() !== '') out.keyword = keyword.trim().slice(0, KEYWORD_MAX);
  return out;
}

/** `search` with the list's params set to `q` (defaults left out); other params unchanged. Starts with `?` unless empty. */
export function writeListSearch(search: string, q: ListQuery): string {
  const params = new URLSearchParams(search);
  // Always in the same order (page, size, q) after the other params, so one state is one address.
  for (const name of Object.values(LIST_PARAMS)) params.delete(name);
  if (q.current > 1) params.append(LIST_PARAMS.current, String(q.current));
  if (q.size !== DEFAULT_PAGE_SIZE) params.append(LIST_PARAMS.size, String(q.size));
  if (q.keyword !== '') params.append(LIST_PARAMS.keyword, q.keyword);
  const str = params.toString();
  return str ? `?${str}` : '';
}

/** Per signed-in user: another user signing in in this browser tab must not see the last one's keyword. */
const storeKey = (route: string) => `list:${session.user?.id ?? 0}:${route}`;

/**
 * Where the list starts: the URL's params when it has any (a reload, a link), else what this browser
 * tab last showed on the route (a tab switch opens the bare path), else the defaults. A remembered
 * page only counts for the same scope (another company's page 7 means nothing).
 */
export function initialListQuery(route: string, scopeKey: string, search: string): ListQuery {
  const fromUrl = readListSearch(search);
  let restored: Partial<ListQuery> = fromUrl;
  if (Object.keys(fromUrl).length === 0) {
    try {
      const saved = JSON.parse(readSession(storeKey(route)) ?? 'null') as { search?: unknown; scope?: unknown } | null;
      if (saved && typeof saved.search === 'string') {
        restored = readListSearch(saved.search);
        if (saved.scope !== scopeKey) delete restored.current;
      }
    } catch {
      // an unreadable entry is no entry
    }
  }
  return { current: restored.current ?? 1, size: restored.size ?? DEFAULT_PAGE_SIZE, keyword: restored.keyword ?? '' };
}

/** Remembers the list state for this browser tab (sessionStorage, like the open tabs). */
export function rememberListQuery(route: string, scopeKey: string, q: ListQuery): void {
  writeSession(storeKey(route), JSON.stringify({ search: writeListSearch('', q), scope: scopeKey }));
}
