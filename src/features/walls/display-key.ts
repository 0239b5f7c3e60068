/**
 * A wall's display key in its URL (`/largeScreen/<wall>?key=wd.<id>.<secret>`): the kiosk browser of a
 * control room opens that address and the wall runs on the key (server/auth/display.ts), never on a
 * user session, so user sign-outs and token expiry do not reach it. `key` is a query name the server's
 * log redaction already hides (server/http/log.ts). The router asks here before its session guard.
 */
import { isWallKey, type WallKey } from '../../../domain/walls/preset.ts';

const WALL_PATH = /\/largeScreen\/([A-Za-z]+)\/?$/;

/** The wall of a path (with or without the base), or null. */
export function wallOf(pathname: string): WallKey | null {
  const m = WALL_PATH.exec(pathname);
  return m && isWallKey(m[1]) ? m[1] : null;
}

/** The display key when `pathname` is a wall and the search carries one; else null. */
export function wallDisplayKey(pathname: string, search: unknown): string | null {
  if (!wallOf(pathname)) return null;
  const key = typeof search === 'object' && search !== null ? (search as Record<string, unknown>)['key'] : undefined;
  return typeof key === 'string' && key.startsWith('wd.') ? key : null;
}
