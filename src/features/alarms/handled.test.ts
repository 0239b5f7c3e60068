import { describe, expect, it } from 'vitest';
import { announceAlarmsHandled, onAlarmsHandled } from './handled.ts';

describe('the alarms-handled signal', () => {
  it('reaches every listening view with the handled ids until it unsubscribes', () => {
    const board: number[][] = [];
    const list: number[][] = [];
    const offBoard = onAlarmsHandled((ids) => board.push([...ids]));
    const offList = onAlarmsHandled((ids) => list.push([...ids]));
    announceAlarmsHandled([7, 9]);
    offBoard();
    announceAlarmsHandled([11]);
    offList();
    announceAlarmsHandled([12]);
    expect(board).toEqual([[7, 9]]);
    expect(list).toEqual([[7, 9], [11]]);
  });
});
