/**
 * Issue 15: the ONE place a vehicle's device (`vehicle.device_no`) changes after the vehicle exists.
 * Every change is an installation record (install: none → device, remove: device → none, replace:
 * old → new) and operator-log rows for the vehicle, each device and the record, all in the caller's
 * transaction; a call that changes nothing writes nothing. Callers: the installation records' create
 * call, the vehicle calls (create with a device, update of its device), imports. After the commit the
 * caller tells the live side: `fleetSync.devicesChanged([...result.devices])` and `vehiclesChanged([vehicleId])`.
 *
 * Rules (the spec is silent; decided here):
 * - The vehicle must exist (404 otherwise); the caller resolves it in its own scope first, or passes `scope`.
 * - The device must exist, and lie in `scope` when one is given (a device the caller cannot see reads as
 *   missing: 400 on `deviceNo`, the same answer for both, so nothing leaks).
 * - The device's company must be the vehicle's company or an ancestor of it: stock held by a head office
 *   goes onto its branches' vehicles, never across to a sibling branch (400 on `deviceNo`). A device of
 *   an ancestor company moves into the vehicle's company when bound, so a bound device always belongs
 *   to its vehicle's company (the branch that runs the vehicle sees and manages its terminal) and stays
 *   there when removed (the branch's stock). The move is in the device's log row.
 * - A device bound to another vehicle is refused with 409 naming that vehicle's plate; take it off
 *   there first (a remove record), so no change ever happens silently on a second vehicle.
 */
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { installationKind } from '../../../domain/fleet/installation.ts';
import { DEVICE_NO_PATTERN } from '../../../domain/fleet/limits.ts';
import type { InstallationKind, NewPhoto } from '../../db/installation-types.ts';
import type { Repositories } from '../../db/repositories.ts';
import { pathInScope, type Scope } from '../../db/scope.ts';
import { AppError, fail } from '../../http/envelope.ts';
import type { Message } from '../../http/messages.ts';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);

export const BindingMessages = {
  noSuchVehicle: pair('车辆不存在', 'No such vehicle'),
  deviceNoFormat: (no: string): Message => pair(`设备号「${no}」应为 12 位数字`, `The device number "${no}" must be 12 digits`),
  noSuchDevice: (no: string): Message => pair(`设备「${no}」不存在，请先在设备管理中录入`, `No device "${no}": enter it on the device page first`),
  deviceCompany: (no: string): Message => pair(
    `设备「${no}」属于其他公司，只能安装到其所属公司或下级公司的车辆上`,
    `The device "${no}" belongs to another company: it can go only onto vehicles of its own company or of its subcompanies`),
  deviceBound: (no: string, plate: string): Message => pair(
    `设备「${no}」已安装在车辆「${plate}」上，请先在该车辆上拆除`,
    `The device "${no}" is on vehicle "${plate}": remove it there first`),
} as const;

export interface ChangeDeviceInput {
  readonly vehicleId: number;
  /** The device to have on the vehicle from now on; null: none. */
  readonly deviceNo: string | null;
  /** The operator (null: the system). */
  readonly userId: number | null;
  readonly userName: string;
  readonly ip: string;
  /** The technician who did the work. */
  readonly installer?: string;
  /** When the work was done (epoch ms); now when absent. */
  readonly time?: number;
  readonly remark?: string;
  /** Set: the device must lie in it (the caller's scope), else it reads as missing. */
  readonly scope?: Scope;
  /** Photos stored with the record (checked by the caller: type by magic bytes, size, count). */
  readonly photos?: readonly NewPhoto[];
}

export interface ChangeDeviceResult {
  /** The installation record written; undefined when nothing changed. */
  readonly installationId: number | undefined;
  readonly kind: InstallationKind | undefined;
  /** The device numbers whose binding changed (for `fleetSync.devicesChanged` after the commit). */
  readonly devices: readonly string[];
}

const DEVICE_NO = new RegExp(DEVICE_NO_PATTERN);

function deviceProblem(status: number, code: string, params: Record<string, unknown>, message: Message): AppError {
  return new AppError(status, message, null, { deviceNo: { code, params } });
}

/** Changes the vehicle's device inside `tx` (see the module comment for the rules). */
export async function changeDevice(tx: Repositories, input: ChangeDeviceInput): Promise<ChangeDeviceResult> {
  const repo = tx.installations;
  const vehicle = await repo.bindingVehicle(input.vehicleId);
  if (!vehicle) throw fail.notFound(BindingMessages.noSuchVehicle);
  const next = input.deviceNo;
  const prev = vehicle.deviceNo;
  if (next === prev) return { installationId: undefined, kind: undefined, devices: [] };

  const time = input.time ?? Date.now();
  const now = Date.now();
  let device: Awaited<ReturnType<typeof repo.bindingDevice>>;
  if (next !== null) {
    if (!DEVICE_NO.test(next)) throw deviceProblem(ErrorCode.BadRequest, 'pattern', {}, BindingMessages.deviceNoFormat(next));
    device = await repo.bindingDevice(next);
    if (!device || (input.scope && !pathInScope(input.scope, device.companyPath))) {
      throw deviceProblem(ErrorCode.BadRequest, 'noSuchDevice', { deviceNo: next }, BindingMessages.noSuchDevice(next));
    }
    if (!vehicle.companyPath.startsWith(device.companyPath)) {
      throw deviceProblem(ErrorCode.BadRequest, 'deviceCompany', { deviceNo: next }, BindingMessages.deviceCompany(next));
    }
    if (device.vehicleId !== null && device.vehicleId !== vehicle.id) {
      throw deviceProblem(ErrorCode.Conflict, 'deviceBound', { deviceNo: next, plate: device.plate }, BindingMessages.deviceBound(next, device.plate ?? ''));
    }
  }

  const kind: InstallationKind = installationKind(prev, next)!;
  const who = { userId: input.userId, userName: input.userName, ip: input.ip, time: now };

  await repo.setVehicleDevice(vehicle.id, next, now);
  await tx.changeLog.append({
    resource: 'vehicle', recordId: vehicle.id, label: vehicle.plate, companyId: vehicle.companyId,
    operation: kind === 'install' ? 'bind' : kind === 'remove' ? 'unbind' : 'replace',
    before: { deviceNo: prev }, after: { deviceNo: next }, ...who,
  });

  if (prev !== null) {
    const old = await repo.bindingDevice(prev);
    if (old) {
      await tx.changeLog.append({
        resource: 'device', recordId: old.id, label: old.deviceNo, companyId: old.companyId, operation: 'unbind',
        before: { vehicleId: vehicle.id, plate: vehicle.plate }, after: { vehicleId: null, plate: null }, ...who,
      });
    }
  }
  if (device) {
    const moved = device.companyId !== vehicle.companyId;
    if (moved) await repo.setDeviceCompany(device.deviceNo, vehicle.companyId, now);
    await tx.changeLog.append({
      resource: 'device', recordId: device.id, label: device.deviceNo, companyId: vehicle.companyId, operation: 'bind',
      before: { vehicleId: null, plate: null, ...(moved ? { companyId: device.companyId } : {}) },
      after: { vehicleId: vehicle.id, plate: vehicle.plate, ...(moved ? { companyId: vehicle.companyId } : {}) },
      ...who,
    });
  }

  const record = {
    vehicleId: vehicle.id, companyId: vehicle.companyId, kind, oldDeviceNo: prev, newDeviceNo: next,
    installer: input.installer?.trim() ?? '', installTime: time, remark: input.remark?.trim() ?? '', userId: input.userId,
  };
  const installationId = await repo.create(record);
  const photos = input.photos ?? [];
  if (photos.length > 0) await repo.addPhotos(installationId, photos);
  await tx.changeLog.append({
    resource: 'installation', recordId: installationId, label: vehicle.plate, companyId: vehicle.companyId, operation: 'create',
    before: null,
    after: {
      kind, oldDeviceNo: prev, newDeviceNo: next, installer: record.installer, installTime: time, remark: record.remark,
      ...(photos.length > 0 ? { photos: photos.map((p) => p.name) } : {}),
    },
    ...who,
  });
  return { installationId, kind, devices: [prev, next].filter((d): d is string => d !== null) };
}
