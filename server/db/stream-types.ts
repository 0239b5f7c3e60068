/** Live-video stream log and per-user daily limits (issue 6): the repository interface. */

/** One live-video connection in the stream log. */
export interface StreamLogEntry {
  readonly id: number;
  readonly userId: number;
  readonly vehicleId: number;
  readonly channel: number;
  readonly stream: number;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly bytes: number;
  /** '' while playing or after a normal end; a stop reason (timeout, deviceOffline, …) otherwise. */
  readonly outcome: string;
}

/** Live-video connections per user (daily limits, stream log). Days are China days 'YYYY-MM-DD'. */
export interface StreamRepository {
  /** Connections the user opened since `dayStart` (epoch ms). */
  countSince(userId: number, dayStart: number): Promise<number>;
  /** The user's limit for `day` (its own or `fallback`, plus extra times granted for that day). */
  limitFor(userId: number, day: string, fallback: number): Promise<number>;
  setDailyLimit(userId: number, limit: number | null): Promise<void>;
  addExtraTimes(userId: number, day: string, times: number): Promise<void>;
  start(entry: Omit<StreamLogEntry, 'id' | 'endedAt' | 'bytes' | 'outcome'>): Promise<number>;
  end(id: number, at: number, bytes: number, outcome: string): Promise<void>;
  /** Newest first; `userIds` restricts to those users (the caller's scope). */
  page(filter: { userIds: readonly number[] | null; from: number; to: number; offset: number; limit: number }): Promise<{ total: number; records: StreamLogEntry[] }>;
}
