/**
 * Demo data for a new database: the company tree (root id 1, branches, fleets), vehicles with
 * plates and 12-digit terminal numbers, bus lines, and the demo roles and accounts.
 */
import { entryByKey } from '../../domain/permissions/access.ts';
import { PERMISSION_REGISTRY } from '../../domain/permissions/registry.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Storage } from '../db/repositories.ts';
import type { VehicleInput } from '../db/types.ts';
import { prng } from '../../domain/random.ts';
import { BRANCHES, PLATE_LETTERS, ROOT_COMPANY, VIN_CHARS, type FleetSeed } from './data.ts';
import { seedLineStations } from './lines.ts';
import { seedVehicleExtras } from './vehicles-extra.ts';
import { seedDrivers } from './drivers.ts';
import { seedChangeLog } from './change-log.ts';
import { seedInstallations } from './installations.ts';
import { seedDevicesExtra } from './devices-extra.ts';
import { seedFaceWarehouse } from './face-warehouse.ts';
import { seedFaceDevices } from './face-recognition.ts';
import { seedFences } from './fences.ts';
import { seedBoxSites } from './box-sites.ts';
import { seedBoxPermits } from './box-permits.ts';
import { seedNotices } from './notices.ts';
import { seedAppUsers } from './app-users.ts';
import { seedTextTemplates } from './voice.ts';

export interface DemoAccount {
  readonly username: string;
  readonly password: string;
  readonly description: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { username: 'admin', password: 'admin123', description: 'administrator (userLevel 0), whole company tree' },
  { username: 'operator', password: 'operator123', description: 'monitor-only operator' },
  { username: 'safety', password: 'safety123', description: 'safety officer' },
  { username: 'branch', password: 'branch123', description: 'branch administrator of 华东分公司 (its subtree only)' },
];

export interface SeedOptions {
  readonly vehicles: number;
  readonly fleetsPerBranch: number;
}

function ids(keys: readonly string[]): number[] {
  return keys.map((key) => {
    const e = entryByKey(key);
    if (!e) throw new Error(`seed names an unknown permission key ${key}`);
    return e.id;
  });
}

function subtreeIds(prefix: string): number[] {
  return PERMISSION_REGISTRY.filter((e) => e.key === prefix || e.key.startsWith(`${prefix}/`) || e.key.startsWith(`${prefix}:`)).map((e) => e.id);
}

const DEMO_DEVICE_TYPES = [
  { devTypeName: 'FLEETSIM-808 (2013)', protocol: 2013, makerId: 'SIMFL', model: 'FLEETSIM-808', remark: '模拟终端，JT/T 808-2013 + JT/T 1078' },
  { devTypeName: 'FLEETSIM-808 (2019)', protocol: 2019, makerId: 'SIMFL', model: 'FLEETSIM-808', remark: '模拟终端，JT/T 808-2019 + JT/T 1078' },
  { devTypeName: 'T1 测试终端', protocol: 2013, makerId: 'TEST', model: 'T1', remark: '网关测试用 TCP 终端（server/gateway/terminal-client.ts）' },
] as const;

export async function seedDemoData(storage: Storage, opts: SeedOptions): Promise<void> {
  const random = prng(20260101);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  // Hash before the transaction: scrypt runs on the thread pool and a transaction must not wait on it.
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)));

  await storage.transaction(async (tx) => {
    const root = await tx.companies.create(null, ROOT_COMPANY);
    if (root.id !== 1) throw new Error('the demo seed expects an empty company table');
    const fleets: { id: number; seed: FleetSeed; lineIds: number[] }[] = [];
    let eastBranchId = 0;
    for (const branch of BRANCHES) {
      const b = await tx.companies.create(root.id, {
        name: branch.name, contact: branch.contact, phone: branch.phone, address: branch.address, remark: '',
      });
      if (branch.name === '华东分公司') eastBranchId = b.id;
      for (let i = 0; i < opts.fleetsPerBranch; i++) {
        const seed: FleetSeed = branch.fleets[i] ?? { name: `${branch.city}第${i + 1}车队`, plates: branch.plates };
        const f = await tx.companies.create(b.id, { name: seed.name, contact: '', phone: '', address: '', remark: '' });
        const lineIds: number[] = [];
        for (const line of seed.lines ?? []) lineIds.push(await tx.fleet.createLine({ name: line, companyId: f.id }));
        fleets.push({ id: f.id, seed, lineIds });
      }
    }

    const plates = new Set<string>();
    const devices = new Set<string>();
    const vehicles: VehicleInput[] = [];
    for (let i = 0; i < opts.vehicles; i++) {
      const fleet = fleets[i % fleets.length];
      if (!fleet) break;
      let plate: string;
      do {
        const prefix = pick(fleet.seed.plates);
        // Buses carry new-energy plates (D + 5 digits); trucks a letter and four digits, or five digits.
        const tail = fleet.lineIds.length
          ? `D${String(Math.floor(random() * 100000)).padStart(5, '0')}`
          : random() < 0.6
            ? `${pick([...PLATE_LETTERS])}${String(Math.floor(random() * 10000)).padStart(4, '0')}`
            : String(Math.floor(random() * 100000)).padStart(5, '0');
        plate = prefix + tail;
      } while (plates.has(plate));
      plates.add(plate);
      let device: string;
      do device = `01${String(Math.floor(random() * 1e10)).padStart(10, '0')}`;
      while (devices.has(device));
      devices.add(device);
      const vin = `LGB${Array.from({ length: 14 }, () => pick([...VIN_CHARS])).join('')}`;
      // Two in three buses run on a line; the rest are spares kept under the fleet.
      const lineId = fleet.lineIds.length && random() < 0.67 ? pick(fleet.lineIds) : null;
      vehicles.push({ vehiidno: plate, companyId: fleet.id, lineId, deviceNo: device, vin });
    }
    await tx.fleet.createVehicles(vehicles);
    await seedVehicleExtras(tx); // issue 15: VINs with check digits, plate colours, types, expiry dates
    await seedDrivers(tx, vehicles); // issue 15: the drivers the simulator's 0x0702 sign-ins name
    await seedLineStations(tx);

    const monitorRole = await tx.roles.create({ name: '监控员', companyId: root.id, remark: '实时监控、轨迹回放、多路视频' }, ids([
      '/home', '/home/index', '/monitor', '/monitor/index', '/monitor/trackPlaybackPage', '/monitor/videoMonitor',
    ]));
    const safetyRole = await tx.roles.create({ name: '安全员', companyId: root.id, remark: '安全管理全部功能、报警多媒体' }, [
      // Alarm photos are evidence the safety officer reviews, so the media reports come with the role.
      ...subtreeIds('/safeManagement'), ...ids(['/home', '/home/index', '/monitor', '/monitor/index', '/report']), ...subtreeIds('/report/media'),
    ]);
    const branchRole = await tx.roles.create({ name: '分公司管理员', companyId: root.id, remark: '管理本分公司的用户、角色和公司' }, [
      ...ids(['/system', '/system/user', '/system/user:create', '/system/user:update', '/system/user:retrieve']),
      ...subtreeIds('/system/role'), ...ids(['/information']), ...subtreeIds('/information/company'),
    ]);

    // The terminal models that really connect to a demo server: the simulator registers as maker SIMFL,
    // model FLEETSIM-808 in both editions (server/sim/terminal.ts), the test terminal as TEST / T1.
    for (const t of DEMO_DEVICE_TYPES) await tx.deviceTypes.create({ ...t, companyId: root.id });

    // Addresses are on for new users (issue 13), the demo accounts included.
    const base = { phone: '', email: '', status: 1, expireTime: null, allowedIps: '', geoInverse: true };
    const [adminHash, operatorHash, safetyHash, branchHash] = hashes as [string, string, string, string];
    await tx.users.create({ ...base, username: 'admin', passwordHash: adminHash, realName: '系统管理员', userLevel: 0, companyId: root.id }, []);
    await tx.users.create({ ...base, username: 'operator', passwordHash: operatorHash, realName: '张监控', userLevel: 2, companyId: root.id }, [monitorRole]);
    await tx.users.create({ ...base, username: 'safety', passwordHash: safetyHash, realName: '刘安全', userLevel: 2, companyId: root.id }, [safetyRole]);
    await tx.users.create({ ...base, username: 'branch', passwordHash: branchHash, realName: '赵分管', userLevel: 1, companyId: eastBranchId }, [branchRole]);
    await seedChangeLog(tx, Date.now()); // issue 15: demo history for the operator logs
    await seedInstallations(tx, Date.now()); // issue 15: the installation records behind the seeded bindings (after the operator log: same times)
    await seedDevicesExtra(tx, Date.now()); // issue 15: unassigned auto-registered devices, devices in stock, refused registrations
    await seedFaceWarehouse(tx, Date.now()); // face warehouse: placeholder portraits for drivers without a photo, their vehicles enrolled
    seedFaceDevices(tx, Date.now()); // issue 19: the simulated face cameras hold their drivers' faces (sim/face.ts)
    await seedFences(tx, Date.now()); // issue 17: demo fences where the fleets drive, bound to their vehicles
    await seedBoxSites(tx, Date.now()); // issue 17: demo disposal sites of the branches (box rules 70003/70004)
    seedBoxPermits(tx, Date.now()); // issue 17: transport permits of the slag trucks, one in twelve expired (70006)
    seedNotices(tx, Date.now()); // issue 19: notices from the platform administrator (header bell, message log)
    await seedAppUsers(tx, Date.now()); // issue 19: drivers'-app accounts the app simulator signs in with (server/sim/app-users.ts)
    seedTextTemplates(tx, Date.now()); // issue 19: text templates for 文本资源 and the 语音下发 picker
  });
}
