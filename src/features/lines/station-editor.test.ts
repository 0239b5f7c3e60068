import { describe, expect, it } from 'vitest';
import { LINE_LIMITS } from '../../../domain/fleet/limits.ts';
import type { Station } from '../../../domain/fleet/line.ts';
import { canAdd, dirty, initialEditor, problems, shown, stationEditor, type EditorAction, type EditorState } from './station-editor.ts';

const s = (name: string, lng: number, lat: number): Station => ({ name, lng, lat });
const A = s('火车站', 120.6106, 31.3303);
const B = s('北寺塔', 120.6168, 31.323);
const C = s('察院场', 120.6175, 31.3118);
const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(stationEditor, state);
const names = (state: EditorState) => shown(state).map((x) => x.name);

describe('station editor', () => {
  const loaded = run(initialEditor(), { type: 'load', stations: { up: [A, B, C], down: [C, A] } });

  it('shows the chosen direction and knows what differs from the server', () => {
    expect(names(loaded)).toEqual(['火车站', '北寺塔', '察院场']);
    expect(dirty(loaded)).toBe(false);
    const down = run(loaded, { type: 'direction', direction: 1 });
    expect(names(down)).toEqual(['察院场', '火车站']);
    const edited = run(loaded, { type: 'rename', index: 1, name: '北寺塔站' });
    expect(dirty(edited, 0)).toBe(true);
    expect(dirty(edited, 1)).toBe(false);
    expect(dirty(run(edited, { type: 'rename', index: 1, name: '北寺塔' }))).toBe(false);
  });

  it('a map click appends, or goes where it lengthens the line least, and selects the new station', () => {
    const appended = run(loaded, { type: 'add', lng: 120.6163, lat: 31.325, name: '站点 4', at: 'end' });
    expect(names(appended)).toEqual(['火车站', '北寺塔', '察院场', '站点 4']);
    expect(appended.selected).toBe(3);
    const between = run(loaded, { type: 'add', lng: 120.6172, lat: 31.317, name: '接驾桥', at: 'best' });
    expect(names(between)).toEqual(['火车站', '北寺塔', '接驾桥', '察院场']);
    expect(between.selected).toBe(2);
  });

  it('the selection follows its station through moves and removals', () => {
    const selected = run(loaded, { type: 'select', index: 2 });
    const moved = run(selected, { type: 'move', from: 0, to: 2 });
    expect(names(moved)).toEqual(['北寺塔', '察院场', '火车站']);
    expect(shown(moved)[moved.selected!]!.name).toBe('察院场');
    const up = run(selected, { type: 'move', from: 2, to: 0 });
    expect(up.selected).toBe(0);
    const removedBefore = run(selected, { type: 'remove', index: 0 });
    expect(shown(removedBefore)[removedBefore.selected!]!.name).toBe('察院场');
    expect(run(selected, { type: 'remove', index: 2 }).selected).toBeNull();
    // Out-of-range operations change nothing.
    expect(run(selected, { type: 'move', from: 7, to: 0 })).toBe(selected);
    expect(run(selected, { type: 'remove', index: -1 })).toBe(selected);
  });

  it('a dragged marker moves its station (6 decimals) and selects it', () => {
    const dragged = run(loaded, { type: 'relocate', index: 1, lng: 120.61691234567, lat: 31.32311 });
    expect(shown(dragged)[1]).toEqual({ name: '北寺塔', lng: 120.616912, lat: 31.32311 });
    expect(dragged.selected).toBe(1);
    expect(dirty(dragged)).toBe(true);
  });

  it('down from up reversed; discard goes back to the server list; saved becomes the new baseline', () => {
    const down = run(loaded, { type: 'direction', direction: 1 }, { type: 'copyReverse' });
    expect(names(down)).toEqual(['察院场', '北寺塔', '火车站']);
    expect(dirty(down)).toBe(true);
    expect(names(run(down, { type: 'discard' }))).toEqual(['察院场', '火车站']);
    const saved = run(down, { type: 'saved', direction: 1, stations: shown(down) });
    expect(dirty(saved)).toBe(false);
    expect(dirty(saved, 0)).toBe(false);
  });

  it('problems are the server rules: a duplicate name, a nameless station', () => {
    const dup = run(loaded, { type: 'rename', index: 2, name: '火车站' }, { type: 'rename', index: 1, name: ' ' });
    expect(problems(dup).map((p) => p.code)).toEqual(['nameRequired', 'duplicateName']);
  });

  it('no station beyond the limit', () => {
    const full = Array.from({ length: LINE_LIMITS.stationsMax }, (_, i) => s(`站 ${i}`, 120 + i * 1e-3, 31));
    const state = run(initialEditor(), { type: 'load', stations: { up: full, down: [] } });
    expect(canAdd(state)).toBe(false);
    expect(run(state, { type: 'add', lng: 121, lat: 31, name: 'x', at: 'end' })).toBe(state);
  });
});
