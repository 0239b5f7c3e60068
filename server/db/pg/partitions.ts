/**
 * Day partitions (issue 20: positions in day partitions). China days (GMT+8), as domain/track/days.ts
 * counts them, so one partition holds what the track and report screens call one day.
 */
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Tables partitioned by China day on a millisecond column (the day partitions of issue 20). */
export const DAY_PARTITIONED: ReadonlyMap<string, string> = new Map([['positions', 'gps_time']]);

const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** DDL of the China-day partition of `table` holding `ms` (idempotent), and its name. */
export function partitionDdl(table: string, ms: number): { name: string; sql: string } {
  const day = Math.floor((ms + CHINA_OFFSET_MS) / DAY_MS);
  const from = day * DAY_MS - CHINA_OFFSET_MS;
  const d = new Date(day * DAY_MS);
  const stamp = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  const name = `${table}_p${stamp}`;
  return { name, sql: `CREATE TABLE IF NOT EXISTS ${q(name)} PARTITION OF ${q(table)} FOR VALUES FROM (${from}) TO (${from + DAY_MS})` };
}
