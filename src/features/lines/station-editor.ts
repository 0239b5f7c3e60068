/**
 * The line editor's station lists (pure): both directions' drafts beside what the server holds, the
 * direction shown and the selected station. Every change goes through `stationEditor` (a reducer), so
 * the list, the numbered markers and the polyline always show the same order, and the selection
 * follows its station when stations move or go. The rules and list operations are domain/fleet/line.ts.
 */
import {
  bestInsertIndex, insertStation, moveStation, relocateStation, removeStation, renameStation, reversed, sameStations,
  stationProblems, type LineDirection, type Station, type StationProblem,
} from '../../../domain/fleet/line.ts';
import { LINE_LIMITS } from '../../../domain/fleet/limits.ts';

export interface Directions {
  readonly up: readonly Station[];
  readonly down: readonly Station[];
}

export interface EditorState {
  readonly direction: LineDirection;
  /** As the server holds them (last load or save). */
  readonly saved: Directions;
  readonly draft: Directions;
  /** Index of the selected station in the shown direction. */
  readonly selected: number | null;
}

export type EditorAction =
  | { type: 'load'; stations: Directions }
  | { type: 'direction'; direction: LineDirection }
  /** A click on the map: appended (`at: 'end'`) or where it lengthens the line least (`'best'`). */
  | { type: 'add'; lng: number; lat: number; name: string; at: 'end' | 'best' }
  | { type: 'move'; from: number; to: number }
  | { type: 'rename'; index: number; name: string }
  | { type: 'relocate'; index: number; lng: number; lat: number }
  | { type: 'remove'; index: number }
  | { type: 'select'; index: number | null }
  /** The shown direction becomes the other one reversed (下行 from 上行). */
  | { type: 'copyReverse' }
  /** The shown direction back to what the server holds. */
  | { type: 'discard' }
  /** The server accepted the shown direction's list. */
  | { type: 'saved'; direction: LineDirection; stations: readonly Station[] };

export const keyOf = (d: LineDirection): keyof Directions => (d === 0 ? 'up' : 'down');

export function initialEditor(stations: Directions = { up: [], down: [] }): EditorState {
  return { direction: 0, saved: stations, draft: stations, selected: null };
}

/** The shown direction's draft. */
export function shown(state: EditorState): readonly Station[] {
  return state.draft[keyOf(state.direction)];
}

/** Whether a direction's draft differs from what the server holds. */
export function dirty(state: EditorState, direction: LineDirection = state.direction): boolean {
  const k = keyOf(direction);
  return !sameStations(state.draft[k], state.saved[k]);
}

/** What stops the shown direction from being saved (the server's own rules). */
export function problems(state: EditorState): StationProblem[] {
  return stationProblems(shown(state));
}

/** Whether another station may be added to the shown direction. */
export function canAdd(state: EditorState): boolean {
  return shown(state).length < LINE_LIMITS.stationsMax;
}

function withShown(state: EditorState, list: Station[], selected: number | null): EditorState {
  return { ...state, draft: { ...state.draft, [keyOf(state.direction)]: list }, selected };
}

export function stationEditor(state: EditorState, action: EditorAction): EditorState {
  const list = shown(state);
  switch (action.type) {
    case 'load':
      return { ...state, saved: action.stations, draft: action.stations, selected: null };
    case 'direction':
      return action.direction === state.direction ? state : { ...state, direction: action.direction, selected: null };
    case 'add': {
      if (!canAdd(state)) return state;
      const at = action.at === 'best' ? bestInsertIndex(list, action.lng, action.lat) : list.length;
      return withShown(state, insertStation(list, { name: action.name, lng: action.lng, lat: action.lat }, at), at);
    }
    case 'move': {
      if (action.from < 0 || action.from >= list.length) return state;
      const to = Math.max(0, Math.min(list.length - 1, action.to));
      // The selection follows the station it marked.
      const sel = state.selected;
      let selected = sel;
      if (sel === action.from) selected = to;
      else if (sel !== null && action.from < sel && to >= sel) selected = sel - 1;
      else if (sel !== null && action.from > sel && to <= sel) selected = sel + 1;
      return withShown(state, moveStation(list, action.from, to), selected);
    }
    case 'rename':
      return withShown(state, renameStation(list, action.index, action.name), state.selected);
    case 'relocate':
      return withShown(state, relocateStation(list, action.index, action.lng, action.lat), action.index);
    case 'remove': {
      if (action.index < 0 || action.index >= list.length) return state;
      const sel = state.selected;
      const selected = sel === null || sel === action.index ? null : sel > action.index ? sel - 1 : sel;
      return withShown(state, removeStation(list, action.index), selected);
    }
    case 'select':
      return { ...state, selected: action.index !== null && action.index >= 0 && action.index < list.length ? action.index : null };
    case 'copyReverse': {
      const other = state.draft[keyOf(state.direction === 0 ? 1 : 0)];
      return withShown(state, reversed(other), null);
    }
    case 'discard':
      return withShown(state, [...state.saved[keyOf(state.direction)]], null);
    case 'saved': {
      const k = keyOf(action.direction);
      return { ...state, saved: { ...state.saved, [k]: action.stations }, draft: { ...state.draft, [k]: action.stations } };
    }
  }
}
