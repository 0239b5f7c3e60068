import { describe, expect, it } from 'vitest';
import { addPoint, DEFAULT_KEY_WINDOW, DEFAULT_SECTION, emptyDraft, removePoint, setKeyPoint, setSection, toggleKeyPoint, validateDraft } from './route-form.ts';

describe('route draft', () => {
  it('clicking adds turning points; each new section copies the one before', () => {
    let d = addPoint(emptyDraft(), 114.05, 22.54);
    expect(d.sections).toEqual([]);
    d = addPoint(d, 114.06, 22.54);
    d = setSection(d, 0, { width: 80, minSeconds: 60 });
    d = addPoint(d, 114.06, 22.55);
    expect(d.points).toHaveLength(3);
    expect(d.sections).toEqual([{ ...DEFAULT_SECTION, width: 80, minSeconds: 60 }, { ...DEFAULT_SECTION, width: 80, minSeconds: 60 }]);
  });

  it('removing a point merges its sections; one point left has none', () => {
    let d = addPoint(addPoint(addPoint(emptyDraft(), 1, 1), 2, 2), 3, 3);
    d = removePoint(d, 1);
    expect(d.points).toEqual([[1, 1], [3, 3]]);
    expect(d.sections).toHaveLength(1);
    expect(removePoint(d, 0).sections).toEqual([]);
  });

  it('names the fields the server would refuse', () => {
    const d = setSection(addPoint(addPoint({ ...emptyDraft(), name: '线' }, 1, 1), 2, 2), 0, { width: 0, minSeconds: 100, maxSeconds: 50 });
    expect(validateDraft(d)).toEqual({ 'sections.0.width': 'errors.width', 'sections.0.minSeconds': 'errors.minOverMax' });
    expect(validateDraft(emptyDraft())).toMatchObject({ name: 'errors.nameRequired', points: 'errors.tooFewPoints' });
  });

  it('key points follow their turning point when an earlier one is removed; a removed point loses its key point', () => {
    let d = addPoint(addPoint(addPoint(addPoint(emptyDraft(), 1, 1), 2, 2), 3, 3), 4, 4);
    d = toggleKeyPoint(toggleKeyPoint(d, 3, true), 1, true);
    expect(d.keyPoints.map((k) => k.point)).toEqual([1, 3]);
    d = removePoint(d, 1);
    expect(d.keyPoints).toEqual([{ point: 2, ...DEFAULT_KEY_WINDOW }]);
    expect(toggleKeyPoint(d, 2, false).keyPoints).toEqual([]);
  });

  it('names the window, night limit and key point fields the server would refuse', () => {
    const base = setSection(addPoint(addPoint({ ...emptyDraft(), name: '线' }, 1, 1), 2, 2), 0, { nightMaxSpeed: 40 });
    expect(validateDraft(base)).toEqual({ 'sections.0.nightMaxSpeed': 'errors.nightNeedsMax' });
    expect(validateDraft(setSection(base, 0, { maxSpeed: 30 }))).toEqual({ 'sections.0.nightMaxSpeed': 'errors.nightOverMax' });
    const ok = setSection(base, 0, { maxSpeed: 60 });
    expect(validateDraft(ok)).toEqual({});
    expect(validateDraft({ ...ok, startTime: '08:00' })).toEqual({ endTime: 'errors.windowPair' });
    expect(validateDraft({ ...ok, startTime: '8:00', endTime: '18:00' })).toEqual({ startTime: 'errors.timeFormat' });
    expect(validateDraft({ ...ok, startTime: '18:00', endTime: '18:00' })).toEqual({ endTime: 'errors.windowEmpty' });
    expect(validateDraft({ ...ok, startTime: '22:00', endTime: '06:00' })).toEqual({});
    const keyed = setKeyPoint(toggleKeyPoint(ok, 1, true), 1, { arriveBy: '24:00' });
    expect(validateDraft(keyed)).toEqual({ 'keyPoints.1.arriveBy': 'errors.timeFormat' });
  });
});
