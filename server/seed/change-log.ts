/**
 * Demo history for the operator logs (issue 15): a new demo database opens /information/operatorLogManagement
 * with rows to read. For the first vehicles of the seed (by plate), the changes that would have led to
 * their seeded state — entered, the device bound, a plate colour or type set — by the demo accounts,
 * on days before today, each consistent with the record as seeded (the log's last "after" is what the
 * list shows). Real changes made in the console and the gateway's auto-registrations log themselves.
 */
import { ALL_COMPANIES } from '../db/scope.ts';
import type { Repositories } from '../db/repositories.ts';

const DAY = 86_400_000;
/** Vehicles given a history. */
const VEHICLES = 8;

export async function seedChangeLog(tx: Repositories, now: number): Promise<void> {
  const admin = await tx.users.findByUsername('admin');
  const branch = await tx.users.findByUsername('branch');
  if (!admin) return;
  const people = [
    { userId: admin.id, userName: admin.realName || admin.username, ip: '10.10.1.5' },
    ...(branch ? [{ userId: branch.id, userName: branch.realName || branch.username, ip: '10.20.3.17' }] : []),
  ];
  const { records } = await tx.vehicles.page(ALL_COMPANIES, { current: 1, size: VEHICLES });
  for (const [i, v] of records.entries()) {
    const who = people[i % people.length]!;
    // A working morning (from 09:00 China time) days back, older for the first vehicles.
    const day = now - (VEHICLES - i) * DAY;
    const at = (hours: number) => day - (day % DAY) + (1 + hours) * 3_600_000 + i * 7 * 60_000;
    const edited = v.plateColor !== 0 || v.vehicleType !== '';
    const base = { resource: 'vehicle' as const, recordId: v.id, label: v.vehiidno, companyId: v.companyId, ...who };
    await tx.changeLog.append({
      ...base, operation: 'create', time: at(0), before: null,
      after: { vehiidno: v.vehiidno, plateColor: edited ? 9 : 0, vin: v.vin, companyId: v.companyId, lineId: v.lineId, vehicleType: '', status: v.status },
    });
    if (edited) await tx.changeLog.append({ ...base, operation: 'update', time: at(1), before: { plateColor: 9, vehicleType: '' }, after: { plateColor: v.plateColor, vehicleType: v.vehicleType } });
    if (v.deviceNo) {
      await tx.changeLog.append({ ...base, operation: 'bind', time: at(2), before: { deviceNo: null }, after: { deviceNo: v.deviceNo } });
      const device = (await tx.devices.page(ALL_COMPANIES, { current: 1, size: 1, keyword: v.deviceNo })).records.find((d) => d.deviceNo === v.deviceNo);
      if (device) {
        await tx.changeLog.append({
          ...who, resource: 'device', recordId: device.id, label: device.deviceNo, companyId: device.companyId, operation: 'bind', time: at(2),
          before: { vehicleId: null, plate: null }, after: { vehicleId: v.id, plate: v.vehiidno },
        });
      }
    }
  }
}
