import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { DEVICE_REPORTS_NS } from '../device-work/messages.ts';
import { FUEL_REPORTS_NS } from '../fuel/messages.ts';
import { ONLINE_CONTROL_NS } from '../online-control/messages.ts';
import { OPERATION_REPORTS_NS } from '../operation/messages.ts';
import { PASSENGER_REPORTS_NS } from '../passengers/messages.ts';

const say = (lng: 'zh' | 'en', ns: string, key: string, params: Record<string, unknown> = {}) => i18n.getFixedT(lng, ns)(key, params);

describe('report frame words', () => {
  it('every report page reads the frame words from its own namespace, in Chinese and English', () => {
    for (const ns of [DEVICE_REPORTS_NS, FUEL_REPORTS_NS, ONLINE_CONTROL_NS, OPERATION_REPORTS_NS, PASSENGER_REPORTS_NS]) {
      expect(say('zh', ns, 'filter.startDate')).toBe('开始日期');
      expect(say('zh', ns, 'period.tooLong', { days: 31 })).toBe('查询时间段不能超过31天');
      expect(say('zh', ns, 'col.vehiidno')).toBe('车牌号');
      expect(say('en', ns, 'period.startAfterEnd')).toBe('The start date cannot be after the end date');
    }
    expect(say('zh', OPERATION_REPORTS_NS, 'playback')).toBe('轨迹回放');
    expect(say('zh', DEVICE_REPORTS_NS, 'export')).toBe('导出');
  });

  it('the whole-company reports keep their own wording of the frame', () => {
    expect(say('zh', OPERATION_REPORTS_NS, 'loadedOf', { loaded: 50, total: 80 })).toBe('已加载 50 / 80 条');
    expect(say('zh', FUEL_REPORTS_NS, 'loadedOf', { loaded: 50, total: 80 })).toBe('已加载 50 / 80');
    expect(say('zh', PASSENGER_REPORTS_NS, 'filter.vehiclesAll', { max: 500 })).toBe('未勾选车辆：统计所选公司的全部车辆（最多500辆）');
    expect(say('en', FUEL_REPORTS_NS, 'filter.tooMany', { max: 500, count: 501 })).toBe('At most 500 vehicles can be selected; 501 are checked');
    expect(say('en', DEVICE_REPORTS_NS, 'filter.tooMany', { max: 500, count: 501 })).toBe('Select at most 500 vehicles (501 selected)');
  });

  it("a feature's own word wins over the frame's", () => {
    expect(say('zh', ONLINE_CONTROL_NS, 'filter.vehiclesAll')).toBe('全部车辆');
    expect(say('en', PASSENGER_REPORTS_NS, 'filter.pickVehicles', { max: 500 })).toBe('Check vehicles in the tree (at most 500)');
    expect(say('en', ONLINE_CONTROL_NS, 'filter.vehiclesChecked', { count: 1 })).toBe('1 vehicle selected');
  });
});
