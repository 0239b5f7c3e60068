/**
 * Limits of the management tables the server's schemas and the console's forms share (issue 13), so a
 * form refuses exactly what the server would. Resource-specific limits live beside their domain
 * (e.g. domain/device-type/limits.ts).
 */

/** Longest text per role field (characters). */
export const ROLE_LIMITS = { name: 32, remark: 200 } as const;

/** Longest text per company field (characters). */
export const COMPANY_LIMITS = { name: 64, contact: 32, phone: 20, address: 200, remark: 200 } as const;

/** A company phone: digits, '+', '-' and spaces (a landline with extension or a mobile with country code). */
export const COMPANY_PHONE_PATTERN = `^[0-9+\\- ]{0,${COMPANY_LIMITS.phone}}$`;

/** Every paged list and batch call (server/http/route.ts `PageFields`, `IdList`). */
export const LIST_LIMITS = {
  /** Rows of one page: spec §5 lets at most 500 companies, vehicles or drivers be selected at once. */
  pageSizeMax: 500,
  pageSizeDefault: 20,
  /** Ids of one batch delete (the same 500). */
  batchMax: 500,
  /** Length of a list's free-text search. */
  keywordMax: 64,
} as const;
