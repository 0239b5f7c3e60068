import { describe, expect, it } from 'vitest';
import { FOLLOW_MAX_AHEAD_MS } from '../../../domain/alarms/board.ts';
import { bringsBoardAlarm, formProblem, stateColor } from './form.ts';

const NOW = 1_700_000_000_000;

describe('the safety board action form', () => {
  it('asks for a note where the server needs one', () => {
    expect(formProblem('resolve', '  ', undefined, NOW)).toBe('noteRequired');
    expect(formProblem('report', '', undefined, NOW)).toBe('noteRequired');
    expect(formProblem('follow', '', NOW + 1000, NOW)).toBe('noteRequired');
    expect(formProblem('cancelFollow', '', undefined, NOW)).toBeNull();
    expect(formProblem('unpush', '', undefined, NOW)).toBeNull();
    expect(formProblem('resolve', 'done', undefined, NOW)).toBeNull();
  });

  it('asks for a next follow-up time in the future and within 30 days', () => {
    expect(formProblem('follow', 'n', undefined, NOW)).toBe('nextFollowRequired');
    expect(formProblem('follow', 'n', NaN, NOW)).toBe('nextFollowRequired');
    expect(formProblem('continueFollow', 'n', NOW, NOW)).toBe('nextFollowPast');
    expect(formProblem('follow', 'n', NOW + FOLLOW_MAX_AHEAD_MS + 1, NOW)).toBe('nextFollowTooFar');
    expect(formProblem('follow', 'n', NOW + 60_000, NOW)).toBeNull();
  });

  it('gives every state its own colour', () => {
    const colors = (['pending', 'following', 'reported', 'resolved', 'unpushed'] as const).map(stateColor);
    expect(new Set(colors).size).toBe(5);
  });
});

describe('live refresh of the safety board', () => {
  const alarm = (id: number, riskLevel: string, dealStatus = 0) => ({ id, riskLevel, dealStatus });

  it('reloads for a new unprocessed high or medium alarm only', () => {
    expect(bringsBoardAlarm([alarm(5, 'high'), alarm(4, 'low')], 4)).toBe(true);
    expect(bringsBoardAlarm([alarm(5, 'medium'), alarm(4, 'high')], 4)).toBe(true);
    expect(bringsBoardAlarm([alarm(5, 'low'), alarm(4, 'high')], 4)).toBe(false);
    expect(bringsBoardAlarm([alarm(5, 'high', 1)], 4)).toBe(false);
    expect(bringsBoardAlarm([alarm(5, 'ordinary')], null)).toBe(false);
  });

  it('treats every listed alarm as new when nothing was seen yet', () => {
    expect(bringsBoardAlarm([alarm(2, 'low'), alarm(1, 'high')], null)).toBe(true);
    expect(bringsBoardAlarm([], null)).toBe(false);
  });
});
