import { describe, expect, it } from 'vitest';
import { batchTypes, FILTER_GROUPS, filterRows, levelChanges, originOf, type LevelChoice } from './settings-model.ts';

const rows = [
  { alarmType: 10001, alarmName: '疲劳驾驶', group: 10, enabled: true, autoHandle: false },
  { alarmType: 10002, alarmName: 'Phone call', group: 10, enabled: false, autoHandle: false },
  { alarmType: 12001, alarmName: '超速报警', group: 12, enabled: true, autoHandle: true },
];

describe('alarm settings model', () => {
  it('offers every catalogue group except the classification headings', () => {
    expect(FILTER_GROUPS).not.toContain(1);
    expect(FILTER_GROUPS).toContain(10);
  });

  it('filters rows by group and by a case-insensitive part of the name or the code', () => {
    expect(filterRows(rows, { group: 10, search: '' }).map((r) => r.alarmType)).toEqual([10001, 10002]);
    expect(filterRows(rows, { group: null, search: ' phone ' }).map((r) => r.alarmType)).toEqual([10002]);
    expect(filterRows(rows, { group: null, search: '12001' }).map((r) => r.alarmType)).toEqual([12001]);
    expect(filterRows(rows, { group: 12, search: '疲劳' })).toEqual([]);
  });

  it('sends only the selected shown types whose value would change', () => {
    const selected = new Set([10001, 10002, 99999]);
    expect(batchTypes(rows, selected, 'enabled', true)).toEqual([10002]);
    expect(batchTypes(rows, selected, 'enabled', false)).toEqual([10001]);
    expect(batchTypes(rows, selected, 'autoHandle', false)).toEqual([]);
    expect(batchTypes(rows.slice(1), selected, 'autoHandle', true)).toEqual([10002]);
  });

  it('tells an own setting from an inherited one and from the catalogue default', () => {
    expect(originOf(5, 5)).toEqual({ kind: 'own' });
    expect(originOf(1, 5)).toEqual({ kind: 'inherited', companyId: 1 });
    expect(originOf(null, 5)).toEqual({ kind: 'default' });
  });

  it('saves only changed levels and sends the default choice as null', () => {
    const levels = [
      { alarmType: 10001, riskLevel: 'high' as const },
      { alarmType: 10002, riskLevel: 'low' as const },
      { alarmType: 12001, riskLevel: 'ordinary' as const },
    ];
    const drafts = new Map<number, LevelChoice>([[10001, 'high'], [10002, 'medium'], [12001, 'default'], [77777, 'low']]);
    expect(levelChanges(levels, drafts)).toEqual([
      { alarmType: 10002, riskLevel: 'medium' },
      { alarmType: 12001, riskLevel: null },
    ]);
    expect(levelChanges(levels, new Map())).toEqual([]);
  });
});
