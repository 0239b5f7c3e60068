/**
 * Demo devices beyond the installed ones (issue 15), so /information/device shows true data of every
 * kind: a few terminals that registered on their own and wait to be assigned (source 'auto', in the
 * root company, where auto-registration puts them), two devices in stock (entered, installed on no
 * vehicle) per branch, and a couple of refused registrations (an unknown number, and a stock device
 * that tried to register before it was installed). Each device has its operator-log row.
 * The installed demo devices are the simulator's terminals: they get its model and the seeded device
 * type of the edition each one speaks, so the device list shows what really connects.
 */
import type { DeviceEdition } from '../../domain/fleet/limits.ts';
import { prng } from '../../domain/random.ts';
import type { Repositories } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import { historyProgram } from '../sim/history.ts';

const DAY = 86_400_000;

/** The simulator's terminal model (server/sim/terminal.ts registers as SIMFL / FLEETSIM-808). */
const SIM_MODEL = 'FLEETSIM-808';
const SIM_MAKER = '模拟终端厂';

/** The edition the demo server's simulator speaks for a device number (its program, configured as the live one's). */
export function simulatedEdition(deviceNo: string): DeviceEdition {
  return historyProgram({ deviceNo }, 0, false).edition;
}

/** The seeded device type of the simulator's model in an edition (null when the seed made none). */
async function simTypes(tx: Repositories): Promise<(edition: DeviceEdition) => number | null> {
  const types = (await tx.deviceTypes.list(ALL_COMPANIES, { keyword: SIM_MODEL }, 50)).records.filter((t) => t.model === SIM_MODEL);
  return (edition) => types.find((t) => t.protocol === edition)?.id ?? null;
}

/** The installed demo devices (entered bare by the fleet seed) get the simulator's model, edition and device type. */
async function typeInstalledDevices(tx: Repositories, typeOf: (edition: DeviceEdition) => number | null): Promise<void> {
  const { records } = await tx.devices.list(ALL_COMPANIES, { bound: true }, 1_000_000);
  for (const d of records) {
    if (d.model !== '' || d.deviceTypeId !== null) continue;
    const protocol = simulatedEdition(d.deviceNo);
    await tx.devices.update(d.id, { model: SIM_MODEL, maker: SIM_MAKER, terminalId: d.terminalId || d.deviceNo.slice(-7), protocol, deviceTypeId: typeOf(protocol) });
  }
}

export async function seedDevicesExtra(tx: Repositories, now: number): Promise<void> {
  const random = prng(20261125);
  const companies = await tx.companies.listAll(ALL_COMPANIES);
  const root = companies.find((c) => c.pid === 0);
  if (!root) return;
  const typeOf = await simTypes(tx);
  await typeInstalledDevices(tx, typeOf);
  const branches = companies.filter((c) => c.pid === root.id);
  const admin = await tx.users.findByUsername('admin');
  const operator = { id: admin?.id ?? null, name: admin ? admin.realName || admin.username : 'admin' };
  let n = 0;
  const nextNo = async (): Promise<string> => {
    let no: string;
    do no = `0199${String(1_000_000 + n++ * 7919 + Math.floor(random() * 7000)).padStart(8, '0')}`;
    while (await tx.devices.numberTaken(no));
    return no;
  };
  const log = async (id: number, deviceNo: string, companyId: number, operation: string, time: number, after: Record<string, unknown>, user: { id: number | null; name: string }) =>
    tx.changeLog.append({ resource: 'device', recordId: id, label: deviceNo, companyId, operation, userId: user.id, userName: user.name, ip: operation === 'register' ? '' : '10.10.1.5', time, before: null, after });

  // Terminals that registered by themselves (the gateway's autoRegister): unassigned until installed.
  const auto = [
    { model: 'FLEETSIM-808', terminalId: 'SIM0A01' },
    { model: 'JT808-T3', terminalId: 'T3A2209' },
    { model: 'ZL-AD100', terminalId: 'AD10057' },
  ];
  for (const [i, a] of auto.entries()) {
    const deviceNo = await nextNo();
    const time = now - (i + 1) * 3 * DAY;
    const id = await tx.devices.create({
      deviceNo, companyId: root.id, terminalId: a.terminalId, model: a.model, maker: '', deviceTypeId: null, protocol: 2013, channelCount: 0,
      simIccid: '', installDate: null, remark: '', source: 'auto',
    });
    await log(id, deviceNo, root.id, 'register', time, { deviceNo, companyId: root.id, terminalId: a.terminalId, model: a.model, source: 'auto' }, { id: null, name: 'terminal' });
  }

  // Devices in stock: entered by the administrator, not installed yet.
  let stockNo = '';
  for (const b of branches) {
    for (let i = 0; i < 2; i++) {
      const deviceNo = await nextNo();
      stockNo ||= deviceNo;
      const iccid = `898600${String(Math.floor(random() * 1e13)).padStart(13, '0')}0`;
      const time = now - Math.floor(5 + random() * 20) * DAY;
      const fields = {
        deviceNo, companyId: b.id, terminalId: `ST${String(Math.floor(random() * 1e5)).padStart(5, '0')}`, model: SIM_MODEL, maker: SIM_MAKER,
        deviceTypeId: typeOf(i === 0 ? 2019 : 2013), protocol: i === 0 ? 2019 : 2013, channelCount: 4, simIccid: iccid, installDate: null, remark: '库存待装', source: 'operator',
      } as const;
      const id = await tx.devices.create(fields);
      await log(id, deviceNo, b.id, 'create', time, { ...fields }, operator);
    }
  }

  // Refused registrations: a number nobody entered, twice; a stock device before its vehicle existed.
  const { terminals } = tx;
  await terminals.recordRegisterRefusal({ deviceNo: '013912345678', result: 4, at: now - 2 * DAY, remoteAddress: '::ffff:10.20.30.40:50122', makerId: 'HQ', model: 'HQ-808G', terminalId: 'HQ00931', plateColor: 2, plate: '苏E8K321' });
  await terminals.recordRegisterRefusal({ deviceNo: '013912345678', result: 4, at: now - DAY, remoteAddress: '::ffff:10.20.30.40:50318', makerId: 'HQ', model: 'HQ-808G', terminalId: 'HQ00931', plateColor: 2, plate: '苏E8K321' });
  await terminals.recordRegisterRefusal({ deviceNo: '015607550011', result: 4, at: now - 6 * 3_600_000, remoteAddress: '::ffff:172.16.8.9:41002', makerId: 'YW', model: 'YW-T8', terminalId: 'YW8', plateColor: 1, plate: '粤B3Q77A' });
  if (stockNo) {
    await terminals.recordRegisterRefusal({ deviceNo: stockNo, result: 2, at: now - 3_600_000, remoteAddress: '::ffff:10.8.0.12:60211', makerId: 'SIMFL', model: 'FLEETSIM-808', terminalId: 'ST00001', plateColor: 0, plate: '' });
  }
}
