import { describe, expect, it } from 'vitest';
import { monthFigures, portraitFigures, trendMonths } from './portrait.ts';
import { checkSupervision, suggestVehicles, supervisionProblemMessage } from '../cab-supervision/rules.ts';

const day = (mileageKm: number, online = true) => ({ online, mileageKm });

describe('customer portrait figures (hand-computed fixture)', () => {
  // Three vehicles: A drove 150 + 50 km with 6 alarms (2 high), scored 80; B drove 300 km with 3 alarms, scored 95;
  // C never came online. Types: 10001 ×5 (4 handled), 12001 ×4 (1 handled). Mileage 500 km; alarms 9.
  const vehicles = [
    { vehicleId: 1, vehiidno: '苏A00001', days: [day(150), day(50)], alarms: 6, highRisk: 2, score: 80 },
    { vehicleId: 2, vehiidno: '苏A00002', days: [day(300), day(0, false)], alarms: 3, highRisk: 0, score: 95 },
    { vehicleId: 3, vehiidno: '苏A00003', days: [day(0, false)], alarms: 0, highRisk: 0, score: null },
  ];
  const types = [{ alarmType: 12001, n: 4, handled: 1 }, { alarmType: 10001, n: 5, handled: 4 }];
  const drivers = [{ cert: 'D2', name: '李四', alarms: 3, highRisk: 0 }, { cert: 'D1', name: '张三', alarms: 6, highRisk: 2 }];
  const p = portraitFigures('2026-11', vehicles, types, drivers);

  it('online rate 2/3 = 66.7 %, mileage 500 km, 9 alarms = 1.8 per 100 km, handled 5/9 = 55.6 %', () => {
    expect(p).toMatchObject({ vehicles: 3, onlineVehicles: 2, onlineRate: 66.7, mileageKm: 500, alarms: 9, alarmsPer100Km: 1.8, handled: 5, handlingRate: 55.6 });
  });
  it('safety score is the mean of scored vehicles only: (80 + 95) / 2 = 87.5', () => {
    expect([p.safetyScore, p.scoredVehicles]).toEqual([87.5, 2]);
  });
  it('types by count with their own rate and handling: 10001 5 → 1 per 100 km, 80 %; 12001 4 → 0.8, 25 %', () => {
    expect(p.byType).toEqual([{ alarmType: 10001, n: 5, per100Km: 1, handlingRate: 80 }, { alarmType: 12001, n: 4, per100Km: 0.8, handlingRate: 25 }]);
  });
  it('risky vehicles by alarms per 100 km (A 3.0 before B 1.0), the quiet one left out; drivers by count', () => {
    expect(p.riskyVehicles.map((v) => [v.vehiidno, v.per100Km, v.mileageKm])).toEqual([['苏A00001', 3, 200], ['苏A00002', 1, 300]]);
    expect(p.riskyDrivers.map((d) => d.name)).toEqual(['张三', '李四']);
  });
  it('an empty month has no rates rather than zeros', () => {
    expect(monthFigures({ month: '2026-10', vehicleDays: [], alarms: 0, handled: 0 })).toMatchObject({ onlineRate: null, alarmsPer100Km: null, handlingRate: null });
  });
  it('six trend months end with the chosen one and cross the year', () => {
    expect(trendMonths('2026-02')).toEqual(['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('cab supervision rules', () => {
  it('validates a supervision in words (zh)', () => {
    const m = (b: Parameters<typeof checkSupervision>[0]) => supervisionProblemMessage(checkSupervision(b)!, 'zh');
    expect(m({ message: 'x', vehicleIds: [1] })).toBe('请选择监管原因');
    expect(m({ reason: 'fatigue', message: '  ', vehicleIds: [1] })).toBe('请填写监管消息内容');
    expect(m({ reason: 'fatigue', message: '注意休息' })).toBe('请选择要监管的车辆或企业');
    expect(m({ reason: 'fatigue', message: '注意休息', vehicleIds: [1], companyId: 2 })).toBe('车辆和企业只能选择其一');
    expect(checkSupervision({ reason: 'fatigue', message: '注意休息', vehicleIds: [1] })).toBeNull();
  });
  it('suggests vehicles at or above the threshold, with the kind they raised most', () => {
    const rows = [
      { vehicleId: 7, alarmType: 10001, n: 2 }, { vehicleId: 7, alarmType: 10013, n: 1 }, { vehicleId: 7, alarmType: 10004, n: 1 },
      { vehicleId: 8, alarmType: 10004, n: 2 }, { vehicleId: 9, alarmType: 12001, n: 50 },
    ];
    expect(suggestVehicles(rows, 3).map((s) => [s.vehicleId, s.total, s.reason])).toEqual([[7, 4, 'fatigue']]);
    expect(suggestVehicles(rows, 2).map((s) => [s.vehicleId, s.reason])).toEqual([[7, 'fatigue'], [8, 'distraction']]);
  });
});
