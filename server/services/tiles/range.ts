/**
 * The `Range` header of a tile-archive request (RFC 9110 §14): one byte range, which is all a PMTiles
 * reader asks for. Several ranges (multipart answers) are refused like a malformed header: a reader
 * never sends them, and answering the whole multi-gigabyte archive instead would be worse.
 */
export interface ByteRange {
  readonly start: number;
  /** Inclusive. */
  readonly end: number;
}

/** The range to send, or 'unsatisfiable' (answer 416 with `Content-Range: bytes *\/size`). */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'unsatisfiable';
  if (m[1] === '') {
    // Suffix range: the last N bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || (m[2] !== '' && Number(m[2]) < start)) return 'unsatisfiable';
  return { start, end };
}
