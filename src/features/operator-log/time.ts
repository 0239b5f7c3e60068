const pad = (n: number) => String(n).padStart(2, '0');

/** A log time to the second in local time (`2026-11-25 08:05:09`): two changes a second apart read apart. */
export function logTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
