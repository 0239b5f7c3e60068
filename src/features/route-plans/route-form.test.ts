import { describe, expect, it } from 'vitest';
import { addPoint, DEFAULT_SECTION, emptyDraft, removePoint, setSection, validateDraft } from './route-form.ts';

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
});
