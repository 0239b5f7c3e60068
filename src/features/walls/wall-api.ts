/**
 * The walls' request client. A wall does not use the console's `http` client: that one signs out and
 * navigates to the login page on a 401 and shows toasts, and a wall must do neither (no dialogs, no
 * person to answer them). It sends the display key (or, for a user who opened the wall from the menu,
 * the session token) in `x-jwt`, answers data or throws `WallApiError`, and leaves retrying to the
 * panels' refresh intervals, so a wall comes back by itself after a server restart or network loss.
 */
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { API_BASE } from '../../api/http.ts';
import { applyTokenHeader, session } from '../../session/store.ts';

/** How a wall authenticates: its display key, or the signed-in user's session. */
export type WallAuth = { readonly kind: 'display'; readonly key: string } | { readonly kind: 'user' };

export class WallApiError extends Error {
  constructor(
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
  /** The key (or session) is refused: revoked, deleted company, signed out. Retrying will not help. */
  get refused(): boolean {
    return this.status === 401;
  }
}

/** Per-call timeout: a wall call is small; a hung request must not freeze a panel's refresh. */
export const WALL_REQUEST_TIMEOUT_MS = 15_000;

function tokenOf(auth: WallAuth): string | null {
  return auth.kind === 'display' ? auth.key : session.token;
}

export async function wallGet<T>(auth: WallAuth, path: string, query: Record<string, string | number | null | undefined>, lang: Lang, fetchImpl: typeof fetch = fetch): Promise<T> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined) q.set(k, String(v));
  const qs = q.toString();
  const headers: Record<string, string> = { 'x-lang': lang };
  const token = tokenOf(auth);
  if (token) headers['x-jwt'] = token;
  let res: Response;
  try {
    res = await fetchImpl(`${API_BASE}${path}${qs ? `?${qs}` : ''}`, { headers, signal: AbortSignal.timeout(WALL_REQUEST_TIMEOUT_MS), cache: 'no-store' });
  } catch (e) {
    throw new WallApiError(0, 0, e instanceof Error ? e.message : String(e));
  }
  // A proxy's error page is not JSON: treat it as a failed answer with the HTTP status.
  const body = (await res.json().catch(() => null)) as { code?: number; msg?: string; data?: T } | null;
  if (!res.ok || !body || body.code !== 200) throw new WallApiError(res.status, body?.code ?? res.status, body?.msg ?? res.statusText);
  // A user's session may have been refreshed (sliding expiry); the console's client keeps the new one.
  if (auth.kind === 'user') applyTokenHeader(res.headers.get('jwt'));
  return body.data as T;
}
