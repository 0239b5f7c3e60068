/**
 * Sliding expiry (spec §4, server/API.md): an answer may carry a fresh token in its `jwt` header,
 * which replaces the stored one. An empty or missing header keeps the current token.
 */
export function nextToken(current: string | null, jwtHeader: string | null | undefined): string | null {
  const fresh = jwtHeader?.trim();
  if (!fresh) return current;
  return fresh;
}

/** True when the answer's header should be written to storage (it differs from what is stored). */
export function tokenChanged(current: string | null, jwtHeader: string | null | undefined): boolean {
  return nextToken(current, jwtHeader) !== current;
}
