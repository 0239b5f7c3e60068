/**
 * Devices (/information/device; `/service-priv/device` GET page, POST create, PUT update, DELETE with a
 * body of ids), declared on the resource layer: terminals apart from vehicles (migration 22). Rules: the
 * 12-digit number is unique (409 naming `deviceNo`); the device type must be one the caller sees; a
 * device installed on a vehicle is not deleted (409: remove it with an installation record first);
 * renumbering follows to the vehicle and the registration row (foreign keys). Every write leaves its
 * operator-log row (`change_log`, resource 'device'), and after the commit the gateway re-reads the
 * device (FleetSync), so a renumbered or deleted device's connection no longer acts as it.
 * The answer adds the vehicle it is installed on, whether it is online now and its registration.
 */
import { Type } from '@fastify/type-provider-typebox';
import { DEVICE_EDITIONS, DEVICE_LIMITS as L, DEVICE_NO_PATTERN, ICCID_PATTERN, type DeviceEdition } from '../../domain/fleet/limits.ts';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { isOnline } from '../../domain/vehicle/state.ts';
import type { DeviceFilter, DeviceInput, DeviceRecord } from '../db/device-record-types.ts';
import type { Repositories, Storage } from '../db/repositories.ts';
import type { AuthContext } from '../http/auth.ts';
import { narrowedScope } from '../http/auth.ts';
import { AppError } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { EpochMs, Id, Text } from '../http/route.ts';
import { afterCommit, type FleetSync } from '../live/fleet-sync.ts';
import type { LiveRuntime } from '../live/runtime.ts';
import type { ImportColumn } from './import.ts';
import { exportEndpoints, type Fields, type ResourceDeclaration } from './resource.ts';

const page = '/information/device' as const;

export const Edition = Type.Union(DEVICE_EDITIONS.map((e) => Type.Literal(e)));
export const DeviceNo = Type.String({ pattern: DEVICE_NO_PATTERN, minLength: L.deviceNoLength, maxLength: L.deviceNoLength });
/** Terminal id and model as a terminal reports them: printable ASCII. */
const Ascii = (max: number) => Type.String({ maxLength: max, pattern: '^[\\x20-\\x7E]*$' });

export const deviceFields = {
  deviceNo: DeviceNo,
  terminalId: Type.Optional(Ascii(L.terminalIdMax)),
  model: Type.Optional(Ascii(L.modelMax)),
  maker: Type.Optional(Text(L.makerMax)),
  deviceTypeId: Type.Optional(Type.Union([Id, Type.Null()])),
  protocol: Type.Optional(Edition),
  channelCount: Type.Optional(Type.Integer({ minimum: 0, maximum: L.channelCountMax })),
  simIccid: Type.Optional(Type.String({ maxLength: L.iccidMax, pattern: ICCID_PATTERN })),
  installDate: Type.Optional(Type.Union([EpochMs, Type.Null()])),
  remark: Type.Optional(Text(L.remarkMax)),
};

const updateFields = { ...deviceFields, deviceNo: Type.Optional(DeviceNo) };

const Bool = Type.Boolean();
export const deviceFilters = {
  keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
  deviceTypeId: Type.Optional(Id),
  protocol: Type.Optional(Edition),
  bound: Type.Optional(Bool),
  source: Type.Optional(Type.Union([Type.Literal('operator'), Type.Literal('import'), Type.Literal('auto')])),
  unassigned: Type.Optional(Bool),
};

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const DeviceMessages = {
  notFound: pair('设备不存在或不在您的管辖范围内', 'The device does not exist or is outside your scope'),
  numberTaken: (no: string): Message => pair(`设备号「${no}」已存在`, `The device number "${no}" already exists`),
  noSuchType: pair('设备类型不存在或不在您的管辖范围内', 'The device type does not exist or is outside your scope'),
  bound: (no: string, plate: string): Message => pair(
    `设备「${no}」已安装在车辆「${plate}」上，请先通过安装记录拆除`,
    `The device "${no}" is installed on the vehicle "${plate}"; remove it with an installation record first`,
  ),
  refusalsForbidden: pair('注册拒绝记录属于未录入的终端，仅可在根公司新增设备的用户可查看', 'Refused registrations belong to no company: only users who may create devices at the root company can see them'),
} as const;

const EDITION_NAME = (e: DeviceEdition) => `JT/T 808-${e}`;

const importColumns: ImportColumn[] = [
  { key: 'deviceNo', header: ['设备号', 'Device number'], schema: DeviceNo, required: true },
  { key: 'terminalId', header: ['终端ID', 'Terminal ID'], schema: deviceFields.terminalId, required: false },
  { key: 'model', header: ['终端型号', 'Model'], schema: deviceFields.model, required: false },
  { key: 'maker', header: ['制造商', 'Maker'], schema: deviceFields.maker, required: false },
  { key: 'protocol', header: ['协议版本', 'Edition'], schema: Edition, required: false },
  { key: 'channelCount', header: ['通道数', 'Channels'], schema: deviceFields.channelCount, required: false },
  { key: 'simIccid', header: ['SIM卡ICCID', 'SIM ICCID'], schema: deviceFields.simIccid, required: false },
  { key: 'installDate', header: ['安装日期', 'Install date'], schema: EpochMs, required: false },
  { key: 'remark', header: ['备注', 'Remark'], schema: deviceFields.remark, required: false },
];

/** The logged fields of a device (before / after of the operator log). */
function logged(d: DeviceRecord): Record<string, unknown> {
  return {
    deviceNo: d.deviceNo, companyId: d.companyId, terminalId: d.terminalId, model: d.model, maker: d.maker, deviceTypeId: d.deviceTypeId,
    protocol: d.protocol, channelCount: d.channelCount, simIccid: d.simIccid, installDate: d.installDate, remark: d.remark,
  };
}

const trim = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

function normalised(body: Fields): Fields {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(deviceFields)) if (body[key] !== undefined) out[key] = trim(body[key]);
  return out;
}

/** The device type, when one is named, must be one the caller sees (400 naming `deviceTypeId`). */
async function checkType(storage: Storage, ctx: AuthContext, deviceTypeId: unknown): Promise<void> {
  if (typeof deviceTypeId !== 'number') return;
  if (!(await storage.deviceTypes.get(ctx.scope, deviceTypeId))) {
    throw new AppError(ErrorCode.BadRequest, DeviceMessages.noSuchType, null, { deviceTypeId: { code: 'noSuchDeviceType' } });
  }
}

/** What the device calls answer: the record, whether it is online now, and its state in words-free codes. */
export interface DeviceView extends DeviceRecord {
  /** Online now: the vehicle's live state when installed, else whether the gateway holds an authenticated connection for it. */
  readonly online: boolean;
  /** Auto-registered and installed on no vehicle. */
  readonly unassigned: boolean;
}

export function deviceView(live: Pick<LiveRuntime, 'store' | 'gateway'>, d: DeviceRecord): DeviceView {
  let online: boolean;
  if (d.vehicleId !== null) {
    const slot = live.store.slotOf(d.vehicleId);
    online = slot >= 0 && isOnline(live.store.stateOf(slot));
  } else {
    online = live.gateway.deviceOnline(d.deviceNo);
  }
  return { ...d, online, unassigned: d.source === 'auto' && d.vehicleId === null };
}

function filtersOf(f: Fields): DeviceFilter {
  return f as DeviceFilter;
}

export function deviceResource(live: Pick<LiveRuntime, 'store' | 'gateway'>, fleetSync: FleetSync): ResourceDeclaration<DeviceRecord> {
  const sync = (...deviceNos: string[]) => afterCommit(() => fleetSync.devicesChanged(deviceNos));
  return {
    name: 'device',
    notFound: DeviceMessages.notFound,
    store: (repos: Repositories) => ({
      get: (scope, id) => repos.devices.get(scope, id),
      page: (scope, req) => repos.devices.page(scope, { ...req, ...filtersOf(req) }),
      create: (input) => repos.devices.create({
        deviceNo: input.deviceNo as string, companyId: input.companyId as number, terminalId: (input.terminalId as string | undefined) ?? '',
        model: (input.model as string | undefined) ?? '', maker: (input.maker as string | undefined) ?? '',
        deviceTypeId: (input.deviceTypeId as number | null | undefined) ?? null, protocol: (input.protocol as DeviceEdition | undefined) ?? 2013,
        channelCount: (input.channelCount as number | undefined) ?? 0, simIccid: (input.simIccid as string | undefined) ?? '',
        installDate: (input.installDate as number | null | undefined) ?? null, remark: (input.remark as string | undefined) ?? '', source: 'operator',
      }),
      update: (id, patch) => repos.devices.update(id, patch as Partial<Omit<DeviceInput, 'source'>>),
      delete: (record) => repos.devices.delete(record.id),
    }),
    view: async (_repos, records) => records.map((d) => deviceView(live, d)),
    page: { method: 'GET', url: '/service-priv/device', permission: page, filters: deviceFilters },
    create: { method: 'POST', url: '/service-priv/device', permission: `${page}:create`, fields: deviceFields },
    update: { method: 'PUT', url: '/service-priv/device', permission: `${page}:update`, fields: updateFields },
    delete: { method: 'DELETE', url: '/service-priv/device', permission: `${page}:delete`, input: 'body' },
    import: {
      endpoint: { method: 'POST', url: '/service-priv/device/import', permission: `${page}:import` },
      columns: importColumns,
      maxRows: L.importRowsMax,
      template: { method: 'GET', url: '/service-priv/device/import_template', permission: `${page}:import`, fileName: ['设备导入模板', 'device_import_template'], asciiName: 'device_import_template' },
      job: {
        start: { method: 'POST', url: '/service-priv/device/batchimp', permission: `${page}:import` },
        status: { method: 'GET', url: '/service-priv/device/batch/status', permission: `${page}:import` },
      },
    },
    export: {
      ...exportEndpoints('/service-priv/device', `${page}:export`),
      cap: 10_000,
      list: (repos, scope, filters, limit) => repos.devices.list(scope, filtersOf(filters), limit),
      fileName: ['设备', 'devices'],
      asciiName: 'devices',
      columns: (lang) => {
        const zh = lang === 'zh';
        const day = (ms: number | null) => (ms === null ? null : new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10));
        return [
          { header: ['设备号', 'Device number'], width: 16, value: (d: DeviceRecord) => d.deviceNo },
          { header: ['终端ID', 'Terminal ID'], width: 16, value: (d: DeviceRecord) => d.terminalId },
          { header: ['终端型号', 'Model'], width: 16, value: (d: DeviceRecord) => d.model },
          { header: ['制造商', 'Maker'], width: 16, value: (d: DeviceRecord) => d.maker },
          { header: ['设备类型', 'Device type'], width: 18, value: (d: DeviceRecord) => d.deviceTypeName },
          { header: ['协议版本', 'Edition'], width: 16, value: (d: DeviceRecord) => EDITION_NAME(d.protocol) },
          { header: ['通道数', 'Channels'], width: 8, value: (d: DeviceRecord) => d.channelCount },
          { header: ['SIM卡ICCID', 'SIM ICCID'], width: 22, value: (d: DeviceRecord) => d.simIccid },
          { header: ['安装日期', 'Install date'], width: 12, value: (d: DeviceRecord) => day(d.installDate) },
          { header: ['所属公司', 'Company'], width: 20, value: (d: DeviceRecord) => d.companyName },
          { header: ['绑定车辆', 'Vehicle'], width: 14, value: (d: DeviceRecord) => d.plate ?? '' },
          { header: ['来源', 'Source'], width: 12, value: (d: DeviceRecord) => (d.source === 'auto' ? (zh ? '自动注册' : 'Auto-registered') : d.source === 'import' ? (zh ? '导入' : 'Imported') : (zh ? '录入' : 'Entered')) },
          { header: ['备注', 'Remark'], width: 24, value: (d: DeviceRecord) => d.remark },
        ];
      },
    },
    changeLog: { resource: 'device', label: (d) => d.deviceNo, companyId: (d) => d.companyId, fields: logged },
    hooks: {
      async prepareCreate({ ctx, storage }, body) {
        // A new device belongs to the company named (the tree's selection by default), else the caller's own: inside the caller's subtree (403).
        const companyId = (body.companyId as number | undefined) ?? ctx.user.companyId;
        await narrowedScope(storage, ctx, companyId);
        const fields = normalised(body);
        await checkType(storage, ctx, fields.deviceTypeId);
        return { ...fields, companyId };
      },
      async prepareUpdate({ ctx, storage }, record, body) {
        // The form sends the device's company: a move within the caller's subtree (403 outside it).
        const companyId = (body.companyId as number | undefined) ?? record.companyId;
        if (companyId !== record.companyId) await narrowedScope(storage, ctx, companyId);
        const fields = normalised(body);
        await checkType(storage, ctx, fields.deviceTypeId);
        return { ...fields, companyId };
      },
      async checkWrite(tx, input, record) {
        const no = input.deviceNo as string | undefined;
        if (no !== undefined && no !== record?.deviceNo && await tx.devices.numberTaken(no, record?.id)) {
          throw new AppError(ErrorCode.Conflict, DeviceMessages.numberTaken(no), null, { deviceNo: { code: 'taken' } });
        }
      },
      async checkDelete(_tx, record) {
        if (record.vehicleId !== null) throw new AppError(ErrorCode.Conflict, DeviceMessages.bound(record.deviceNo, record.plate ?? ''));
        sync(record.deviceNo);
      },
      async afterWrite(_tx, _id, input, record) {
        // After the commit the gateway re-reads the device: a renumbering drops the old number's connection.
        const no = input.deviceNo as string | undefined;
        if (record && no !== undefined && no !== record.deviceNo) sync(record.deviceNo, no);
        else if (!record && no !== undefined) sync(no);
      },
    },
  };
}
