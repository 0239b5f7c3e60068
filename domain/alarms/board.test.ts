import { describe, expect, it } from 'vitest';
import {
  allowedActions, BOARD_ACTION_BUTTON, BOARD_ACTIONS, BOARD_STATES, boardMessage, FOLLOW_MAX_AHEAD_MS, isOverdue, transition,
  UNPUSH_MUTE_DEFAULT_MINUTES, worseRisk, type BoardAction, type BoardItemState, type BoardState,
} from './board.ts';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;

const item = (state: BoardState, over: Partial<BoardItemState> = {}): BoardItemState => ({
  state, nextFollowTime: state === 'following' ? NOW + HOUR : null, reportTime: state === 'reported' ? NOW - HOUR : null, followCount: state === 'following' ? 1 : 0, ...over,
});

const good = (action: BoardAction) => ({ action, now: NOW, note: 'called the driver', nextFollowTime: NOW + 2 * HOUR, muteMinutes: 60 });

function expectOk(from: BoardItemState, action: BoardAction) {
  const d = transition(from, good(action));
  if (!d.ok) throw new Error(`${from.state} ${action}: ${d.error.message[1]}`);
  return d.change;
}

function expectRefused(from: BoardItemState, action: BoardAction, kind: 'state' | 'input' = 'state') {
  const d = transition(from, good(action));
  if (d.ok) throw new Error(`${from.state} ${action} was allowed`);
  expect(d.error.kind).toBe(kind);
  return d.error;
}

describe('the safety board state machine', () => {
  it('follows a pending item with a note and a next follow-up time', () => {
    expect(expectOk(item('pending'), 'follow')).toEqual({ state: 'following', nextFollowTime: NOW + 2 * HOUR, reportTime: null, followCount: 1, closeTime: null, muteUntil: null });
  });

  it('continue follow keeps following with the new deadline and counts the follow-up', () => {
    expect(expectOk(item('following', { followCount: 2 }), 'continueFollow')).toMatchObject({ state: 'following', nextFollowTime: NOW + 2 * HOUR, followCount: 3 });
  });

  it('cancel follow returns a never-reported item to pending and a reported one to reported', () => {
    expect(expectOk(item('following'), 'cancelFollow')).toMatchObject({ state: 'pending', nextFollowTime: null });
    expect(expectOk(item('following', { reportTime: NOW - HOUR }), 'cancelFollow')).toMatchObject({ state: 'reported', nextFollowTime: null, reportTime: NOW - HOUR });
  });

  it('reports pending and followed items once, stamping the report time and ending the follow', () => {
    expect(expectOk(item('pending'), 'report')).toMatchObject({ state: 'reported', reportTime: NOW, nextFollowTime: null });
    expect(expectOk(item('following'), 'report')).toMatchObject({ state: 'reported', reportTime: NOW, nextFollowTime: null });
    expect(boardMessage(expectRefused(item('reported'), 'report').message, 'en')).toBe('This item has already been reported');
    expect(boardMessage(expectRefused(item('following', { reportTime: NOW - HOUR }), 'report').message, 'zh')).toBe('该事项已上报，不能重复上报');
  });

  it('a reported item can be followed again', () => {
    expect(expectOk(item('reported'), 'follow')).toMatchObject({ state: 'following', reportTime: NOW - HOUR });
  });

  it('resolves every open item and closes it', () => {
    for (const s of ['pending', 'following', 'reported'] as const) {
      expect(expectOk(item(s), 'resolve')).toMatchObject({ state: 'resolved', closeTime: NOW, nextFollowTime: null });
    }
  });

  it('unpushes a never-reported item and mutes the vehicle for the chosen time (default one day)', () => {
    expect(expectOk(item('pending'), 'unpush')).toMatchObject({ state: 'unpushed', closeTime: NOW, muteUntil: NOW + 60 * 60_000 });
    const d = transition(item('following'), { action: 'unpush', now: NOW, note: '' });
    expect(d.ok && d.change.muteUntil).toBe(NOW + UNPUSH_MUTE_DEFAULT_MINUTES * 60_000);
  });

  it('refuses to unpush what was reported', () => {
    const e = expectRefused(item('reported'), 'unpush');
    expect(boardMessage(e.message, 'en')).toBe('A reported item cannot be unpushed: resolve it once it is handled');
    expectRefused(item('following', { reportTime: NOW - HOUR }), 'unpush');
  });

  it('refuses every action on a closed item, in both languages', () => {
    for (const s of ['resolved', 'unpushed'] as const) {
      for (const a of BOARD_ACTIONS) {
        const e = expectRefused(item(s), a);
        expect(boardMessage(e.message, 'en')).toMatch(/already (resolved|unpushed): no further action/);
        expect(boardMessage(e.message, 'zh')).toMatch(/不能再操作/);
      }
    }
  });

  it('refuses follow on a followed item (continue instead), and continue or cancel on an unfollowed one', () => {
    expect(boardMessage(expectRefused(item('following'), 'follow').message, 'en')).toBe('This item is already being followed: use continue following');
    expect(boardMessage(expectRefused(item('pending'), 'continueFollow').message, 'en')).toBe('Cannot continue following an item that is pending');
    expect(boardMessage(expectRefused(item('pending'), 'cancelFollow').message, 'zh')).toBe('「待处理」状态的事项不能取消跟进');
    expectRefused(item('reported'), 'continueFollow');
    expectRefused(item('reported'), 'cancelFollow');
  });

  it('needs a note to follow, continue, report and resolve, but not to cancel a follow or unpush', () => {
    for (const a of ['follow', 'report', 'resolve'] as const) {
      const d = transition(item('pending'), { ...good(a), note: '  ' });
      expect(d.ok ? null : d.error).toMatchObject({ kind: 'input', field: 'note' });
    }
    expect(transition(item('following'), { ...good('continueFollow'), note: '' }).ok).toBe(false);
    expect(transition(item('following'), { ...good('cancelFollow'), note: '' }).ok).toBe(true);
    expect(transition(item('pending'), { ...good('unpush'), note: '' }).ok).toBe(true);
    const long = transition(item('pending'), { ...good('resolve'), note: 'x'.repeat(501) });
    expect(long.ok ? null : long.error.field).toBe('note');
  });

  it('needs a next follow-up time in the future and within 30 days, naming the field', () => {
    const at = (nextFollowTime: number | undefined) => transition(item('pending'), { action: 'follow', now: NOW, note: 'n', nextFollowTime });
    for (const bad of [undefined, NOW, NOW - 1, NOW + FOLLOW_MAX_AHEAD_MS + 1]) {
      const d = at(bad);
      expect(d.ok ? null : d.error).toMatchObject({ kind: 'input', field: 'nextFollowTime' });
      expect(d.ok ? '' : boardMessage(d.error.message, 'en')).toMatch(/^Field nextFollowTime is (required|invalid)/);
    }
    expect(at(NOW + FOLLOW_MAX_AHEAD_MS).ok).toBe(true);
    const cont = transition(item('following'), { action: 'continueFollow', now: NOW, note: 'n', nextFollowTime: NOW - 5 });
    expect(cont.ok ? null : cont.error.field).toBe('nextFollowTime');
  });

  it('checks the mute time of an unpush', () => {
    for (const bad of [-1, 1.5, 7 * 24 * 60 + 1]) {
      const d = transition(item('pending'), { ...good('unpush'), muteMinutes: bad });
      expect(d.ok ? null : d.error.field).toBe('muteMinutes');
    }
    expect(transition(item('pending'), { ...good('unpush'), muteMinutes: 0 }).ok).toBe(true);
  });

  it('state errors come before input errors (a closed item says so, not "note required")', () => {
    const d = transition(item('resolved'), { action: 'resolve', now: NOW, note: '' });
    expect(d.ok ? null : d.error.kind).toBe('state');
  });

  it('lists what each state allows', () => {
    const allowed = Object.fromEntries(BOARD_STATES.map((s) => [s, allowedActions(item(s))]));
    expect(allowed).toEqual({
      pending: ['follow', 'report', 'resolve', 'unpush'],
      following: ['continueFollow', 'cancelFollow', 'report', 'resolve', 'unpush'],
      reported: ['follow', 'resolve'],
      resolved: [],
      unpushed: [],
    });
    expect(allowedActions(item('following', { reportTime: NOW }))).toEqual(['continueFollow', 'cancelFollow', 'resolve']);
  });

  it('maps each action to its page button', () => {
    expect(BOARD_ACTION_BUTTON).toEqual({ follow: 'follow', continueFollow: 'follow', cancelFollow: 'follow', report: 'upload', resolve: 'resolve', unpush: 'unpush' });
  });

  it('is overdue only while followed past its follow-up time', () => {
    expect(isOverdue({ state: 'following', nextFollowTime: NOW - 1 }, NOW)).toBe(true);
    expect(isOverdue({ state: 'following', nextFollowTime: NOW }, NOW)).toBe(false);
    expect(isOverdue({ state: 'pending', nextFollowTime: NOW - 1 }, NOW)).toBe(false);
    expect(isOverdue({ state: 'resolved', nextFollowTime: null }, NOW)).toBe(false);
  });

  it('keeps the worse of two risk levels', () => {
    expect(worseRisk('medium', 'high')).toBe('high');
    expect(worseRisk('high', 'medium')).toBe('high');
    expect(worseRisk('medium', 'medium')).toBe('medium');
  });
});
