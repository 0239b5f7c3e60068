import { describe, expect, it } from 'vitest';
import { changeLogPeriodProblem, changeLineText, changeLines, changeResourceOfRoute, fieldName, fieldValue, operationName, referencedIds } from './change-fields.ts';

describe('operator-log wording', () => {
  it('names fields and operations in both languages, unknown ones as their key', () => {
    expect(fieldName('plateColor', 'zh')).toBe('车牌颜色');
    expect(fieldName('plateColor', 'en')).toBe('Plate colour');
    expect(fieldName('someNewField', 'zh')).toBe('someNewField');
    expect(operationName('move', 'zh')).toBe('转移公司');
    expect(operationName('register', 'en')).toBe('Auto-registered');
    expect(operationName('purge', 'en')).toBe('purge');
  });

  it('words values by kind: codes, China-time dates, references through names, lists', () => {
    expect(fieldValue('plateColor', 2, 'zh')).toBe('黄色');
    expect(fieldValue('vehicleType', 'muck', 'en')).toBe('Muck truck');
    expect(fieldValue('status', 0, 'zh')).toBe('停用');
    expect(fieldValue('protocol', 2019, 'en')).toBe('JT/T 808-2019');
    // 2026-12-31 00:00 in China is 2026-12-30 16:00 UTC: the China day is what an expiry means
    expect(fieldValue('insuranceExpire', Date.UTC(2026, 11, 30, 16), 'en')).toBe('2026-12-31');
    expect(fieldValue('installTime', Date.UTC(2026, 10, 25, 1, 5), 'zh')).toBe('2026-11-25 09:05');
    expect(fieldValue('companyId', 12, 'zh', { company: { 12: '华东分公司' } })).toBe('华东分公司');
    expect(fieldValue('companyId', 13, 'zh', { company: { 12: '华东分公司' } })).toBe('公司 #13');
    expect(fieldValue('driverIds', [3, 4], 'en', { driver: { 3: 'Li' } })).toBe('Li, driver #4');
    expect(fieldValue('channels', [{ channel: 1, kind: 'video', name: '前向' }, { channel: 2, kind: 'video', name: '' }], 'zh')).toBe('1 前向、2');
    expect(fieldValue('remark', '', 'zh')).toBe('—');
    expect(fieldValue('lineId', null, 'en')).toBe('—');
    expect(fieldValue('mystery', { a: 1 }, 'en')).toBe('{"a":1}');
  });

  it('words the line operations: stations by name in order, the vehicle count, the plates added or removed', () => {
    const up = [{ name: '人民广场', lng: 121.47, lat: 31.23 }, { name: '南京东路', lng: 121.48, lat: 31.24 }];
    expect(changeLines({ upStations: [] }, { upStations: up }, 'zh').map(changeLineText)).toEqual(['上行站点: — → 人民广场、南京东路']);
    expect(changeLines({ downStations: up }, { downStations: up.slice(1) }, 'en').map(changeLineText)).toEqual(['Stations (down): 人民广场, 南京东路 → 南京东路']);
    expect(changeLines({ vehicleCount: 3 }, { vehicleCount: 5, added: ['沪A12345', '沪A12346'] }, 'zh').map(changeLineText))
      .toEqual(['车辆数: 3 → 5', '加入车辆: — → 沪A12345、沪A12346']);
    expect(changeLines({ vehicleCount: 5 }, { vehicleCount: 4, removed: ['沪A12345'] }, 'en').map(changeLineText))
      .toEqual(['Vehicles: 5 → 4', 'Vehicles removed: — → 沪A12345']);
    expect(fieldName('vehicleCount', 'en')).toBe('Vehicles');
  });

  it('lists a change field by field in the table order, hides bookkeeping, and writes "field: before → after"', () => {
    const lines = changeLines({ status: 1, plateColor: 1, updateTime: 5, zzz: 'a' }, { status: 0, plateColor: 2, updateTime: 6, zzz: 'b' }, 'zh');
    expect(lines.map(changeLineText)).toEqual(['车牌颜色: 蓝色 → 黄色', '状态: 在用 → 停用', 'zzz: a → b']);
    expect(changeLines(null, { vehiidno: '粤B12345' }, 'en').map(changeLineText)).toEqual(['Plate: 粤B12345']);
    expect(changeLines({ vehiidno: '粤B12345' }, null, 'en').map(changeLineText)).toEqual(['Plate: 粤B12345']);
    // an id logged beside its name at the time shows as the name only
    expect(changeLines({ vehicleId: null, plate: null }, { vehicleId: 7, plate: '粤B12345' }, 'zh').map(changeLineText)).toEqual(['车牌号: — → 粤B12345']);
    expect(changeLines({ vehicleId: null }, { vehicleId: 7 }, 'zh', { vehicle: { 7: '粤B12345' } }).map(changeLineText)).toEqual(['绑定车辆: — → 粤B12345']);
  });

  it('holds a search period to both ends or neither, in order, at most 92 days apart', () => {
    const day = 86_400_000;
    expect(changeLogPeriodProblem(undefined, undefined)).toBeNull();
    expect(changeLogPeriodProblem(0, undefined)).toBe('missing');
    expect(changeLogPeriodProblem(5, 4)).toBe('order');
    expect(changeLogPeriodProblem(0, 92 * day)).toBeNull();
    expect(changeLogPeriodProblem(0, 92 * day + 1)).toBe('span');
  });

  it('collects the referenced ids a server names, and maps list screens to their resource', () => {
    const refs = referencedIds([{ companyId: 3, lineId: null, driverIds: [7, 8] }, null, { companyId: 4, vehicleId: 9 }]);
    expect([...refs.get('company')!]).toEqual([3, 4]);
    expect([...refs.get('driver')!]).toEqual([7, 8]);
    expect([...refs.get('vehicle')!]).toEqual([9]);
    expect(refs.has('line')).toBe(false);
    expect(changeResourceOfRoute('/information/device')).toBe('device');
    expect(changeResourceOfRoute('/system/user')).toBeUndefined();
  });
});
