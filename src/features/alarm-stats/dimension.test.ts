import { describe, expect, it } from 'vitest';
import type { CompanyRow, DateRow, DriverRow, TypeRow, VehicleRow } from './api.ts';
import { cellOf, rowKey, rowLabel } from './dimension.ts';

const counts = { count: 3, occurrences: 4, unprocessed: 1, vehicles: 2 };

describe('statistics rows', () => {
  it('gives each dimension its key, label and the cell of its alarms', () => {
    const type: TypeRow = { ...counts, alarmType: 12001, alarmName: '超速报警', alarmGroup: 12, groupName: '超速' };
    expect([rowKey('type', type, 5), rowLabel('type', type, ''), cellOf('type', type)]).toEqual(['t12001', '超速报警', { alarmType: 12001 }]);
    const day: DateRow = { ...counts, date: '2026-11-20' };
    expect([rowKey('date', day, 2), rowLabel('date', day, ''), cellOf('date', day)]).toEqual(['#2', '2026-11-20', { date: '2026-11-20' }]);
    const vehicle: VehicleRow = { ...counts, vehicleId: 9, vehiidno: '浙A12345', companyId: 3, companyName: '东区' };
    expect([rowKey('vehicle', vehicle, 0), rowLabel('vehicle', vehicle, ''), cellOf('vehicle', vehicle)]).toEqual(['v9', '浙A12345', { vehicleId: 9 }]);
    const driver: DriverRow = { ...counts, driverKey: 'v:9', identified: false, driverName: '未识别驾驶员（浙A12345）', driverCert: '', vehicleId: 9, vehiidno: '浙A12345' };
    expect([rowKey('driver', driver, 0), cellOf('driver', driver)]).toEqual(['v:9', { driverKey: 'v:9' }]);
  });

  it('keeps a company’s own-vehicles row apart from its subtree row', () => {
    const own: CompanyRow = { ...counts, companyId: 2, companyName: '东区', own: true, childCount: 2 };
    const sub: CompanyRow = { ...own, own: false };
    expect(rowKey('company', own, 0)).not.toBe(rowKey('company', sub, 0));
    expect(rowLabel('company', own, '（本级车辆）')).toBe('东区（本级车辆）');
    expect(rowLabel('company', sub, '（本级车辆）')).toBe('东区');
    expect(cellOf('company', own)).toEqual({ companyId: 2, ownCompanyId: 2 });
    expect(cellOf('company', sub)).toEqual({ companyId: 2 });
  });
});
