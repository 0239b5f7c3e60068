/**
 * The safety board (issue 5, `/safeManagement/safetyBoardPage`): a vehicle's open risk and what an
 * officer may do with it. Pure rules shared by the server (every call runs `transition`) and the
 * console (`allowedActions` enables buttons). The spec names the actions but not their transitions
 * ("not shown"); these are ours, documented in server/API.md "Safety board".
 *
 * A board item is ONE vehicle's open risk: it opens when an unprocessed high- or medium-risk alarm
 * of a vehicle without an open item arrives, and every further such alarm of that vehicle joins it
 * until the item is closed (resolved or unpushed).
 *
 * ```
 *             follow                 continueFollow (new note + deadline)
 *   pending ───────────▶ following ◀──┐
 *      │  ◀─────────────     │  └─────┘
 *      │   cancelFollow      │ report
 *      │ report              ▼
 *      └──────────────▶ reported ──follow──▶ following (cancelFollow returns to reported)
 *   resolve: pending | following | reported → resolved          (closed)
 *   unpush:  pending | following (never reported) → unpushed    (closed, mutes the vehicle)
 *   handled elsewhere: pending → resolved, by the platform, once none of its alarms is unprocessed
 * ```
 * An item nobody has taken up yet (pending) whose alarms were all handled on the processing page
 * (or the pop-up) has nothing left to decide, so it resolves itself and logs who handled the last
 * alarm. An item being followed or reported stays: its follow-up is about the driver, not the alarms.
 */
import type { Lang } from '../errors/catalogue.ts';
import type { RiskLevel } from './sources.ts';

export const BOARD_STATES = ['pending', 'following', 'reported', 'resolved', 'unpushed'] as const;
export type BoardState = (typeof BOARD_STATES)[number];
/** States that keep an item on the board (new alarms of its vehicle join it). */
export const OPEN_BOARD_STATES: readonly BoardState[] = ['pending', 'following', 'reported'];
export const CLOSED_BOARD_STATES: readonly BoardState[] = ['resolved', 'unpushed'];

export const BOARD_ACTIONS = ['follow', 'continueFollow', 'cancelFollow', 'report', 'resolve', 'unpush'] as const;
export type BoardAction = (typeof BOARD_ACTIONS)[number];

/** The page's button each action needs (registry keys `/safeManagement/safetyBoardPage:<button>`). */
export const BOARD_ACTION_BUTTON: Readonly<Record<BoardAction, 'follow' | 'resolve' | 'upload' | 'unpush'>> = {
  follow: 'follow',
  continueFollow: 'follow',
  cancelFollow: 'follow',
  report: 'upload',
  resolve: 'resolve',
  unpush: 'unpush',
};

/** Platform risk levels (after company settings) that put a vehicle on the board. */
export const BOARD_RISK_LEVELS: readonly RiskLevel[] = ['high', 'medium'];
/** Alarms that started longer ago than this when the board first sees them stay off it (old history). */
export const BOARD_WINDOW_MS = 24 * 3_600_000;
/** A follow-up deadline may lie at most this far ahead. */
export const FOLLOW_MAX_AHEAD_MS = 30 * 86_400_000;
/** Unpush mutes the vehicle this long by default (its new alarms join the unpushed item). */
export const UNPUSH_MUTE_DEFAULT_MINUTES = 24 * 60;
export const UNPUSH_MUTE_MAX_MINUTES = 7 * 24 * 60;
export const BOARD_NOTE_MAX = 500;

/** What the rules need of an item. */
export interface BoardItemState {
  readonly state: BoardState;
  readonly nextFollowTime: number | null;
  /** Set once the item was reported (uploaded to the supervising level); a report is never undone. */
  readonly reportTime: number | null;
  readonly followCount: number;
}

export interface BoardCommand {
  readonly action: BoardAction;
  readonly now: number;
  /** Trimmed note; required for follow, continueFollow, report and resolve. */
  readonly note: string;
  /** follow / continueFollow: the next follow-up time (epoch ms). */
  readonly nextFollowTime?: number;
  /** unpush: how long the vehicle stays muted. */
  readonly muteMinutes?: number;
}

/** The fields a successful action changes. */
export interface BoardChange {
  readonly state: BoardState;
  readonly nextFollowTime: number | null;
  readonly reportTime: number | null;
  readonly followCount: number;
  /** Set when the item closes. */
  readonly closeTime: number | null;
  /** unpush: new alarms of the vehicle before this time join the unpushed item. */
  readonly muteUntil: number | null;
}

type Pair = readonly [zh: string, en: string];

/** Why an action was refused: `state` → 409, `input` → 400 naming `field`. */
export interface BoardError {
  readonly kind: 'state' | 'input';
  readonly field?: 'note' | 'nextFollowTime' | 'muteMinutes';
  readonly message: Pair;
}

export type BoardDecision = { readonly ok: true; readonly change: BoardChange } | { readonly ok: false; readonly error: BoardError };

export const BOARD_STATE_NAMES: Readonly<Record<BoardState, Pair>> = {
  pending: ['待处理', 'pending'],
  following: ['跟进中', 'being followed'],
  reported: ['已上报', 'reported'],
  resolved: ['已解决', 'resolved'],
  unpushed: ['已取消推送', 'unpushed'],
};

export const BOARD_ACTION_NAMES: Readonly<Record<BoardAction, Pair>> = {
  follow: ['跟进', 'follow'],
  continueFollow: ['继续跟进', 'continue following'],
  cancelFollow: ['取消跟进', 'cancel following'],
  report: ['上报', 'report'],
  resolve: ['解决', 'resolve'],
  unpush: ['取消推送', 'unpush'],
};

/** The log name of the platform closing a pending item whose alarms were all handled elsewhere. */
export const BOARD_HANDLED_ELSEWHERE: Pair = ['报警已全部处理，自动解决', 'all alarms handled, resolved automatically'];

/** Whether an item closes (resolved) once none of its alarms is unprocessed any more. */
export function closesWhenAlarmsHandled(state: BoardState): boolean {
  return state === 'pending';
}

export function boardMessage(m: Pair, lang: Lang): string {
  return lang === 'zh' ? m[0] : m[1];
}

const stateError = (message: Pair): BoardDecision => ({ ok: false, error: { kind: 'state', message } });
const inputError = (field: NonNullable<BoardError['field']>, message: Pair): BoardDecision => ({ ok: false, error: { kind: 'input', field, message } });

function notAllowed(action: BoardAction, state: BoardState): BoardDecision {
  const [az, ae] = BOARD_ACTION_NAMES[action];
  const [sz, se] = BOARD_STATE_NAMES[state];
  return stateError([`「${sz}」状态的事项不能${az}`, `Cannot ${ae} an item that is ${se}`]);
}

export const isOpenState = (s: BoardState) => OPEN_BOARD_STATES.includes(s);

/** A followed item whose follow-up time has passed. */
export function isOverdue(item: Pick<BoardItemState, 'state' | 'nextFollowTime'>, now: number): boolean {
  return item.state === 'following' && item.nextFollowTime !== null && item.nextFollowTime < now;
}

function checkFollowTime(cmd: BoardCommand): BoardDecision | undefined {
  const t = cmd.nextFollowTime;
  if (t === undefined) return inputError('nextFollowTime', ['字段 nextFollowTime 不能为空：请填写下次跟进时间', 'Field nextFollowTime is required: give the next follow-up time']);
  if (t <= cmd.now) return inputError('nextFollowTime', ['字段 nextFollowTime 不合法：下次跟进时间必须晚于现在', 'Field nextFollowTime is invalid: the next follow-up must be in the future']);
  if (t > cmd.now + FOLLOW_MAX_AHEAD_MS) return inputError('nextFollowTime', ['字段 nextFollowTime 不合法：下次跟进时间不能超过30天后', 'Field nextFollowTime is invalid: the next follow-up must be within 30 days']);
  return undefined;
}

const NOTE_REQUIRED: Readonly<Partial<Record<BoardAction, true>>> = { follow: true, continueFollow: true, report: true, resolve: true };

/**
 * Decides an action on an item: the change to store, or why it is refused. State rules come first
 * (a closed item refuses everything), then the input the action needs.
 */
export function transition(item: BoardItemState, cmd: BoardCommand): BoardDecision {
  const { action, now } = cmd;
  const s = item.state;
  if (!isOpenState(s)) {
    const [sz, se] = BOARD_STATE_NAMES[s];
    return stateError([`该事项${sz}，不能再操作`, `This item is already ${se}: no further action is possible`]);
  }
  const keep = { state: s, nextFollowTime: item.nextFollowTime, reportTime: item.reportTime, followCount: item.followCount, closeTime: null, muteUntil: null };
  let change: BoardChange;
  switch (action) {
    case 'follow':
      if (s === 'following') return stateError(['该事项正在跟进中，请使用“继续跟进”', 'This item is already being followed: use continue following']);
      change = { ...keep, state: 'following', nextFollowTime: cmd.nextFollowTime ?? null, followCount: item.followCount + 1 };
      break;
    case 'continueFollow':
      if (s !== 'following') return notAllowed(action, s);
      change = { ...keep, nextFollowTime: cmd.nextFollowTime ?? null, followCount: item.followCount + 1 };
      break;
    case 'cancelFollow':
      if (s !== 'following') return notAllowed(action, s);
      // Back to where the follow started: a reported item stays reported.
      change = { ...keep, state: item.reportTime === null ? 'pending' : 'reported', nextFollowTime: null };
      break;
    case 'report':
      if (item.reportTime !== null) return stateError(['该事项已上报，不能重复上报', 'This item has already been reported']);
      change = { ...keep, state: 'reported', nextFollowTime: null, reportTime: now };
      break;
    case 'resolve':
      change = { ...keep, state: 'resolved', nextFollowTime: null, closeTime: now };
      break;
    case 'unpush': {
      // The supervising level has a reported item: it cannot silently leave the board.
      if (item.reportTime !== null) return stateError(['已上报的事项不能取消推送，处理完成后请“解决”', 'A reported item cannot be unpushed: resolve it once it is handled']);
      const minutes = cmd.muteMinutes ?? UNPUSH_MUTE_DEFAULT_MINUTES;
      if (!Number.isInteger(minutes) || minutes < 0 || minutes > UNPUSH_MUTE_MAX_MINUTES) {
        return inputError('muteMinutes', [`字段 muteMinutes 不合法：应为 0 到 ${UNPUSH_MUTE_MAX_MINUTES} 的整数`, `Field muteMinutes is invalid: use a whole number from 0 to ${UNPUSH_MUTE_MAX_MINUTES}`]);
      }
      change = { ...keep, state: 'unpushed', nextFollowTime: null, closeTime: now, muteUntil: now + minutes * 60_000 };
      break;
    }
  }
  if (NOTE_REQUIRED[action] && cmd.note.trim() === '') {
    return inputError('note', ['字段 note 不能为空：请填写说明', 'Field note is required: write what was done or why']);
  }
  if (cmd.note.length > BOARD_NOTE_MAX) {
    return inputError('note', [`字段 note 不合法：最多 ${BOARD_NOTE_MAX} 个字符`, `Field note is invalid: at most ${BOARD_NOTE_MAX} characters`]);
  }
  if (action === 'follow' || action === 'continueFollow') {
    const bad = checkFollowTime(cmd);
    if (bad) return bad;
  }
  return { ok: true, change };
}

/** The actions an item's state allows (the console enables buttons by this; permission bits are separate). */
export function allowedActions(item: BoardItemState): BoardAction[] {
  const probe = (action: BoardAction): boolean => {
    const d = transition(item, { action, now: 0, note: 'x', nextFollowTime: 1, muteMinutes: 0 });
    return d.ok || d.error.kind === 'input';
  };
  return BOARD_ACTIONS.filter(probe);
}

/** The more severe of two board levels. */
export function worseRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  const order: readonly RiskLevel[] = ['high', 'medium', 'low', 'ordinary'];
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}
