import { isApiError } from '../api/http.ts';

/** The message of a failed call in the user's language (the server's `msg`, already localised). */
export function errorText(e: unknown): string {
  if (isApiError(e)) return e.msg;
  return e instanceof Error ? e.message : String(e);
}
