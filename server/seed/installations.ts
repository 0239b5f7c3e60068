/**
 * Demo installation records (issue 15): every seeded vehicle's device was put on by a technician at some
 * point, so /information/vehicle_installed opens with the history that led to the seeded bindings —
 * one install per vehicle, and for about one vehicle in twelve an earlier terminal that failed and was
 * replaced by the one it has now (the old one scrapped, so it is no device row). Where the operator-log
 * seed (change-log.ts) already logged a vehicle's binding, the install carries that time and operator,
 * so the two pages agree. Recorded by the administrator; no photos (the demo has no real ones).
 */
import { prng } from '../../domain/random.ts';
import type { NewInstallation } from '../db/installation-types.ts';
import type { Repositories } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';

const DAY = 86_400_000;
const INSTALLERS = ['王建国', '李志强', '张伟', '刘洋', '陈磊', '杨帆', '赵勇', '黄海涛', '周明', '吴斌'];
const INSTALL_REMARKS = [
  '新车前装：主机、4 路摄像头、GNSS/4G 天线，试运行正常',
  '主机装于副驾储物箱内，ADAS 摄像头前挡居中，DSM 摄像头 A 柱',
  '安装主机及 2 路摄像头，电源取自 ACC，定位正常',
  '',
];
const REPLACE_REMARKS = [
  '原终端长时间不定位，检测 GNSS 模块故障，整机更换',
  '原终端 4G 模块损坏、频繁离线，更换终端',
  '原终端进水短路，更换终端并重新走线',
  '原终端存储卡座损坏无法录像，更换终端',
];

/** A working hour (08:00–18:00 China time) of the day `ms` falls on. */
function workHour(ms: number, random: () => number): number {
  const chinaMidnight = ms - ((ms + 8 * 3_600_000) % DAY);
  return chinaMidnight + (8 + Math.floor(random() * 10)) * 3_600_000 + Math.floor(random() * 60) * 60_000;
}

export async function seedInstallations(tx: Repositories, now: number): Promise<number> {
  const random = prng(20261125);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const admin = await tx.users.findByUsername('admin');
  const userId = admin?.id ?? null;
  // The bindings the operator-log seed wrote: same time and operator here.
  const logged = new Map<number, { time: number; userId: number | null }>();
  const binds = await tx.changeLog.page(ALL_COMPANIES, { resource: 'vehicle', operation: 'bind', current: 1, size: 500 });
  for (const b of binds.records) logged.set(b.recordId, { time: b.time, userId: b.userId });

  const records: (NewInstallation & { createTime: number })[] = [];
  for (const [i, v] of (await tx.installations.boundVehicles()).entries()) {
    const base = { vehicleId: v.vehicleId, companyId: v.companyId, userId };
    const log = logged.get(v.vehicleId);
    if (log) {
      records.push({ ...base, userId: log.userId, kind: 'install', oldDeviceNo: null, newDeviceNo: v.deviceNo, installer: pick(INSTALLERS), installTime: log.time, remark: pick(INSTALL_REMARKS), createTime: log.time });
    } else if (i % 12 === 5) {
      const first = workHour(now - (200 + Math.floor(random() * 200)) * DAY, random);
      const second = workHour(now - (3 + Math.floor(random() * 150)) * DAY, random);
      const old = `02${v.deviceNo.slice(2)}`;
      records.push({ ...base, kind: 'install', oldDeviceNo: null, newDeviceNo: old, installer: pick(INSTALLERS), installTime: first, remark: pick(INSTALL_REMARKS), createTime: first + 3_600_000 });
      records.push({ ...base, kind: 'replace', oldDeviceNo: old, newDeviceNo: v.deviceNo, installer: pick(INSTALLERS), installTime: second, remark: pick(REPLACE_REMARKS), createTime: second + 1_800_000 });
    } else {
      const at = workHour(now - (20 + Math.floor(random() * 380)) * DAY, random);
      records.push({ ...base, kind: 'install', oldDeviceNo: null, newDeviceNo: v.deviceNo, installer: pick(INSTALLERS), installTime: at, remark: pick(INSTALL_REMARKS), createTime: at + 3_600_000 });
    }
  }
  await tx.installations.createMany(records);
  return records.length;
}
