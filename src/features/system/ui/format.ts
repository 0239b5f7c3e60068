import { isApiError } from '../../../api/http.ts';

/** `2026-11-22 07:06` in local time; '' for none. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The message of a failed call for a form (the server's `msg`, in the caller's language). */
export function errorMessage(e: unknown): string {
  if (isApiError(e)) return e.msg;
  return e instanceof Error ? e.message : String(e);
}
