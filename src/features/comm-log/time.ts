/** Times of the communication log screens: the browser's clock, to the millisecond (frames come in bursts). */
export function fmtTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** Value of an `<input type="datetime-local">` for `ms` (local time, seconds). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Epoch ms of a datetime-local value; NaN when empty or invalid. */
export function fromLocalInput(v: string): number {
  return v ? new Date(v).getTime() : NaN;
}
