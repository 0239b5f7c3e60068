import { describe, expect, it } from 'vitest';
import { DEFAULT_PRESETS, describeProblem, presetProblems, WALL_KEYS, wallBasemap, type WallPreset } from './preset.ts';

const base = DEFAULT_PRESETS.monitoringCenter;
const withPanels = (panels: unknown[]): unknown => ({ ...base, panels });

describe('wall presets', () => {
  it('has a drawable factory preset for each of the eight walls, each with one map', () => {
    expect(Object.keys(DEFAULT_PRESETS).sort()).toEqual([...WALL_KEYS].sort());
    for (const wall of WALL_KEYS) {
      expect([wall, presetProblems(DEFAULT_PRESETS[wall])]).toEqual([wall, []]);
      expect(DEFAULT_PRESETS[wall].panels.filter((p) => p.kind === 'map')).toHaveLength(1);
    }
  });

  it('names the missing source on the parking and Shell walls instead of showing figures', () => {
    const sources = (p: WallPreset) => p.panels.filter((x) => x.kind === 'missingSource').map((x) => x.source);
    expect(sources(DEFAULT_PRESETS.monitoringParkCharge)).toContain('parkingRevenue');
    expect(sources(DEFAULT_PRESETS.shellProject)).toContain('shellFuel');
  });

  it('refuses overlapping panels, naming both', () => {
    const problems = presetProblems(withPanels([{ kind: 'map', x: 0, y: 0, w: 10, h: 10 }, { kind: 'alarmTicker', x: 9, y: 9, w: 3, h: 3 }]));
    expect(problems).toEqual([{ code: 'overlap', index: 1, other: 0 }]);
    expect(describeProblem(problems[0]!, 'en')).toBe('panel 2 overlaps panel 1');
    expect(describeProblem(problems[0]!, 'zh')).toBe('第 2 个面板与第 1 个面板重叠');
  });

  it('accepts panels that only touch edges', () => {
    expect(presetProblems(withPanels([{ kind: 'map', x: 0, y: 0, w: 12, h: 12 }, { kind: 'alarmTicker', x: 12, y: 0, w: 12, h: 12 }]))).toEqual([]);
  });

  it('refuses panels outside the 24 × 12 grid, unknown kinds, a second map and a missing source without its name', () => {
    const problems = presetProblems(withPanels([
      { kind: 'map', x: 20, y: 0, w: 5, h: 2 },
      { kind: 'weather', x: 0, y: 0, w: 1, h: 1 },
      { kind: 'map', x: 0, y: 2, w: 2, h: 2 },
      { kind: 'missingSource', x: 4, y: 4, w: 2, h: 2 },
    ]));
    expect(problems.map((p) => p.code).sort()).toEqual(['outsideGrid', 'sourceMissing', 'twoMaps', 'unknownKind']);
  });

  it('checks the title, theme, centre and zoom', () => {
    const bad = { ...base, title: { zh: '', en: 'x'.repeat(41) }, theme: 'neon', map: { center: [200, 0], zoom: 30 } };
    expect(presetProblems(bad).map((p) => p.code).sort()).toEqual(['center', 'shape', 'title', 'title', 'zoom']);
    expect(presetProblems(null)).toEqual([{ code: 'shape', field: 'preset' }]);
    expect(presetProblems(withPanels([]))).toEqual([{ code: 'noPanels' }]);
  });

  it('draws the street map when the server holds one unless the preset keeps the outline; refuses other basemaps', () => {
    expect(wallBasemap(undefined, true)).toBe('streets');
    expect(wallBasemap('streets', true)).toBe('streets');
    expect(wallBasemap('outline', true)).toBe('outline');
    expect(wallBasemap(undefined, false)).toBe('outline');
    expect(wallBasemap('streets', false)).toBe('outline');
    expect(presetProblems({ ...base, map: { ...base.map, basemap: 'outline' } })).toEqual([]);
    expect(presetProblems({ ...base, map: { ...base.map, basemap: 'satellite' } })).toEqual([{ code: 'shape', field: 'map.basemap' }]);
  });
});
