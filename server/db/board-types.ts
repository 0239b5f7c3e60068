/** Records and the repository contract of the safety board (migration 7, server/API.md "Safety board"). */
import type { BoardAction, BoardChange, BoardState } from '../../domain/alarms/board.ts';
import type { RiskLevel } from '../../domain/alarms/sources.ts';
import type { Scope } from './scope.ts';

export interface BoardItemRecord {
  readonly id: number;
  readonly vehicleId: number;
  readonly vehiidno: string;
  readonly deviceNo: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly companyPath: string;
  readonly state: BoardState;
  readonly riskLevel: RiskLevel;
  readonly alarmCount: number;
  readonly firstAlarmTime: number;
  readonly lastAlarmTime: number;
  readonly lastAlarmType: number;
  /** The note of the latest action. */
  readonly note: string;
  readonly nextFollowTime: number | null;
  readonly followCount: number;
  readonly reportTime: number | null;
  readonly closeTime: number | null;
  readonly muteUntil: number | null;
  /** Who acted last (null: nobody yet). */
  readonly handlerUserId: number | null;
  readonly handlerName: string;
  readonly createTime: number;
  readonly updateTime: number;
}

/** open / alarm: an alarm opened or joined the item; handled: its alarms were all handled elsewhere. */
export type BoardLogAction = 'open' | 'alarm' | 'handled' | BoardAction;

export interface BoardLogEntry {
  readonly id: number;
  readonly itemId: number;
  /** null: the platform (an alarm opened or joined the item). */
  readonly userId: number | null;
  readonly username: string;
  readonly action: BoardLogAction;
  readonly fromState: BoardState | null;
  readonly toState: BoardState;
  readonly note: string;
  readonly nextFollowTime: number | null;
  readonly alarmId: number | null;
  readonly alarmType: number | null;
  readonly createTime: number;
}

export interface BoardFilter {
  /** Default (empty): the open states. */
  readonly states?: readonly BoardState[];
  readonly riskLevels?: readonly RiskLevel[];
  readonly vehicleIds?: readonly number[];
  /** Only followed items whose follow-up time is before this. */
  readonly overdueAt?: number;
}

export interface BoardStat {
  readonly pending: number;
  readonly following: number;
  readonly reported: number;
  /** Followed items past their follow-up time (also counted in `following`). */
  readonly overdue: number;
  /** Items closed since the `since` time. */
  readonly resolved: number;
  readonly unpushed: number;
  readonly high: number;
  readonly medium: number;
}

export interface BoardActor {
  readonly userId: number;
  readonly username: string;
}

export interface BoardRepository {
  /**
   * Reads the alarms stored since the last call: every unprocessed alarm at a board level that started
   * after `notBefore` opens an item for its vehicle or joins the vehicle's open (or muted) item.
   */
  ingest(levels: readonly RiskLevel[], notBefore: number): Promise<{ opened: number; joined: number }>;
  /** Whether alarms were stored since the last `ingest` (two indexed reads, no transaction). */
  behind(): Promise<boolean>;
  get(scope: Scope, id: number): Promise<BoardItemRecord | undefined>;
  page(scope: Scope, filter: BoardFilter, offset: number, limit: number): Promise<{ total: number; records: BoardItemRecord[] }>;
  stat(scope: Scope, now: number, closedSince: number): Promise<BoardStat>;
  /**
   * Stores an action already decided by `transition` on an item whose state is still `from`; answers
   * false (nothing written) when another action changed it first. Writes one log row.
   */
  apply(id: number, from: BoardState, change: BoardChange, note: string, actor: BoardActor, now: number, action: BoardAction): Promise<boolean>;
  logs(itemId: number): Promise<BoardLogEntry[]>;
  /** The item's alarm ids, newest first (at most `limit`), and which of them are still unprocessed. */
  alarmIds(itemId: number, limit: number): Promise<number[]>;
  unprocessedAlarmIds(itemId: number): Promise<number[]>;
  /**
   * After alarms were handled outside the board: resolves each item holding one of them that
   * `closesWhenAlarmsHandled` and has no unprocessed alarm left, logged under `actor`. Answers the ids.
   */
  closeHandled(alarmIds: readonly number[], actor: BoardActor, now: number): Promise<number[]>;
}
