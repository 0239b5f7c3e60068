import { describe, expect, it } from 'vitest';
import { entryByKey } from './access.ts';
import { grantsAlarmPopup, missingAlarmPopup } from './alarm-popup.ts';

const ids = (...keys: string[]) => new Set(keys.map((k) => entryByKey(k)?.id ?? -1));

describe('the alarm pop-up warning on saving a role', () => {
  it('names monitoring when a monitoring role lacks the /global alarm pop-up', () => {
    const groups = missingAlarmPopup(ids('/monitor', '/monitor/index'));
    expect(groups.map((g) => g.key)).toEqual(['/monitor']);
  });

  it('names both groups, in menu order, for a duty role with monitoring and alarm handling', () => {
    const groups = missingAlarmPopup(ids('/safeManagement', '/safeManagement/alarmProcessingPage', '/monitor', '/monitor/index'));
    expect(groups.map((g) => g.zh)).toEqual(['监控中心', '安全管理']);
  });

  it('does not warn once the pop-up is granted, or one of its buttons (the pop-up then shows)', () => {
    expect(missingAlarmPopup(ids('/monitor', '/monitor/index', '/global', '/global/alarm'))).toEqual([]);
    expect(missingAlarmPopup(ids('/monitor', '/monitor/index', '/global/alarm:musicReminder'))).toEqual([]);
    expect(grantsAlarmPopup(ids('/global/alarm:ttsReminder'))).toBe(true);
  });

  it('does not warn a role without monitoring or safety pages (e.g. user administration)', () => {
    expect(missingAlarmPopup(ids('/system', '/system/user', '/system/user:create'))).toEqual([]);
    expect(missingAlarmPopup(new Set())).toEqual([]);
  });

  it('does not count a bare group record without any of its pages', () => {
    expect(missingAlarmPopup(ids('/monitor'))).toEqual([]);
  });
});
