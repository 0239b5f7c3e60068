/** Pure helpers of the safety board page (unit-tested): checks before calling, state colours. */
import { BOARD_RISK_LEVELS, FOLLOW_MAX_AHEAD_MS, type BoardAction, type BoardState } from '../../../domain/alarms/board.ts';

/** Actions whose note the server requires (domain/alarms/board.ts `transition`). */
export const NOTE_REQUIRED: ReadonlySet<BoardAction> = new Set(['follow', 'continueFollow', 'report', 'resolve']);

/** Why the action form cannot be sent yet (a `form.*` message key), or null. The server checks again. */
export function formProblem(action: BoardAction, note: string, nextFollowTime: number | undefined, now: number): 'noteRequired' | 'nextFollowRequired' | 'nextFollowPast' | 'nextFollowTooFar' | null {
  if (NOTE_REQUIRED.has(action) && note.trim() === '') return 'noteRequired';
  if (action === 'follow' || action === 'continueFollow') {
    if (nextFollowTime === undefined || !Number.isFinite(nextFollowTime)) return 'nextFollowRequired';
    if (nextFollowTime <= now) return 'nextFollowPast';
    if (nextFollowTime > now + FOLLOW_MAX_AHEAD_MS) return 'nextFollowTooFar';
  }
  return null;
}

const STATE_COLORS: Readonly<Record<BoardState, string>> = { pending: 'orange', following: 'blue', reported: 'grape', resolved: 'green', unpushed: 'gray' };

/** Mantine colour of a board state. */
export const stateColor = (s: BoardState): string => STATE_COLORS[s];

/**
 * Whether the alarms newer than `seen` (the newest id of the previous snapshot; null: none known) include
 * one that can open or join a board item: unprocessed, at a board risk level. Snapshots list newest first.
 */
export function bringsBoardAlarm(recent: readonly { id: number; riskLevel: string; dealStatus: number }[], seen: number | null): boolean {
  return recent.some((a) => (seen === null || a.id > seen) && a.dealStatus === 0 && (BOARD_RISK_LEVELS as readonly string[]).includes(a.riskLevel));
}
