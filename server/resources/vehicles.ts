/**
 * Vehicles (/information/vehicle; spec: `/service-priv/vehicle` GET page, POST create, PUT update,
 * DELETE with a body, import, export), declared on the resource layer. Rules (issue 15):
 * - the plate (vehiidno) is unique across the forest (the terminal directory and the tree key on it);
 * - the VIN is required, 17 characters with its check digit (domain/fleet/vin.ts), stored upper-case;
 * - the company lies in the caller's subtree (the tree selection on create; an update never moves: that
 *   is `modifyVehiCompany`), the line is a line of that company's subtree, drivers lie in the caller's scope;
 * - the device is bound and unbound only through `changeDevice` (binding.ts: installation record + logs);
 * - a vehicle with history (positions, alarms) is never deleted: 409 telling to retire it (status 0).
 * Every write leaves its operator-log row (`changeLog`); the live side hears of it after the answer.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ErrorCode, FieldMessage, type Lang } from '../../domain/errors/catalogue.ts';
import {
  DEVICE_NO_PATTERN, DEVICE_LIMITS, expiryState, PLATE_COLOR_NAMES, PLATE_COLORS, VEHICLE_LIMITS as L, VEHICLE_TYPE_NAMES,
  VEHICLE_TYPES, type PlateColor, type VehicleType,
} from '../../domain/fleet/limits.ts';
import { plateColorChoices, plateColorOf, vehicleTypeChoices, vehicleTypeOf } from '../../domain/fleet/vehicle-words.ts';
import { normalizeVin, VIN_MESSAGES, vinProblem } from '../../domain/fleet/vin.ts';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import type { Repositories } from '../db/repositories.ts';
import type { Scope } from '../db/scope.ts';
import type { VehicleChannel, VehicleFilters, VehicleRecord, VehicleWrite } from '../db/vehicle-record-types.ts';
import { narrowedScope } from '../http/auth.ts';
import { AppError } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { EpochMs, Id, Name, Text } from '../http/route.ts';
import { chinaTimeText } from '../services/track/common.ts';
import { changeDevice } from '../services/fleet-assets/binding.ts';
import { checkDictCode } from './dictionary-codes.ts';
import type { ImportColumn } from './import.ts';
import { exportEndpoints, firstRows, type CallContext, type Fields, type LoggedRecord, type ResourceDeclaration } from './resource.ts';

const page = '/information/vehicle' as const;

const lit = <T extends string | number>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
export const PlateColorField = lit<number>(PLATE_COLORS);
export const VehicleTypeField = lit<string>(['', ...VEHICLE_TYPES]);
export const StatusField = lit<number>([0, 1]);
const DateOrNull = Type.Union([EpochMs, Type.Null()]);
const DeviceNoOrNull = Type.Union([Type.String({ pattern: DEVICE_NO_PATTERN }), Type.Null()]);
/** A VIN as typed: the length and check digit are checked by the domain rule so the 400 carries its message. */
const VinField = Type.String({ minLength: 1, maxLength: 32 });
export const CHANNEL_NAME_MAX = 16;
const ChannelField = Type.Object({
  channel: Type.Integer({ minimum: 1, maximum: DEVICE_LIMITS.channelCountMax }),
  kind: Type.Optional(lit<string>(['video', 'audio'])),
  name: Text(CHANNEL_NAME_MAX),
}, { additionalProperties: false });
/** Drivers of one vehicle: a bus runs shifts, a handful at most; 50 leaves room. */
export const VEHICLE_DRIVERS_MAX = 50;

const optional = {
  plateColor: Type.Optional(PlateColorField),
  lineId: Type.Optional(Type.Union([Id, Type.Null()])),
  vehicleType: Type.Optional(VehicleTypeField),
  status: Type.Optional(StatusField),
  insuranceExpire: Type.Optional(DateOrNull),
  inspectionExpire: Type.Optional(DateOrNull),
  remark: Type.Optional(Text(L.remarkMax)),
  deviceNo: Type.Optional(DeviceNoOrNull),
  channels: Type.Optional(Type.Array(ChannelField, { maxItems: DEVICE_LIMITS.channelCountMax })),
  driverIds: Type.Optional(Type.Array(Id, { maxItems: VEHICLE_DRIVERS_MAX, uniqueItems: true })),
};
const createFields = { vehiidno: Name(L.plateMax), vin: VinField, ...optional };
const updateFields = { vehiidno: Type.Optional(Name(L.plateMax)), vin: Type.Optional(VinField), ...optional };

export const vehicleFilters = {
  keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
  lineId: Type.Optional(Id),
  status: Type.Optional(StatusField),
  vehicleType: Type.Optional(lit<string>(VEHICLE_TYPES)),
  bound: Type.Optional(lit<number>([0, 1])),
  expiry: Type.Optional(lit<string>(['soon', 'expired'])),
};

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const VehicleMessages = {
  plateTaken: (plate: string): Message => pair(`车牌号「${plate}」已存在`, `The plate "${plate}" already exists`),
  vin: (problem: keyof typeof VIN_MESSAGES): Message => (lang) => FieldMessage.invalid('vin', VIN_MESSAGES[problem][lang === 'zh' ? 0 : 1], lang),
  noSuchLine: pair('线路不存在或不属于车辆所属公司', 'No such line in the vehicle\'s company'),
  noSuchDriver: (id: number): Message => pair(`驾驶员（ID ${id}）不存在`, `No driver with id ${id}`),
  channelTwice: (n: number): Message => pair(`通道 ${n} 重复`, `Channel ${n} is listed twice`),
  hasHistory: (plate: string): Message => pair(
    `车辆「${plate}」已有定位或报警记录，不能删除；请将其状态设为「停用」`,
    `The vehicle "${plate}" has positions or alarms on record and cannot be deleted; set its status to retired instead`),
} as const;

function fieldError(status: number, field: string, code: string, message: Message, params?: Record<string, unknown>): AppError {
  return new AppError(status, message, null, { [field]: { code, ...(params ? { params } : {}) } });
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);

/** An expiry cell of an import: an Excel date, or text `2026-12-01` (also `2026/12/1`). */
const DATE_TEXT = '^\\s*\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}\\s*$';
const ExpiryCell = Type.Union([EpochMs, Type.String({ pattern: DATE_TEXT })]);

const CHINA_OFFSET_MS = 8 * 3_600_000;

/** An expiry as stored: the start of its China day (GMT+8); text dates name that day (400 on `field` for no such day). Undefined / null pass through. */
export function expiryDay(v: unknown, field: string): number | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v === 'string') {
    const [y, m, d] = v.trim().split(/[-/.]/).map(Number) as [number, number, number];
    const ms = Date.UTC(y, m - 1, d);
    if (new Date(ms).getUTCMonth() !== m - 1 || new Date(ms).getUTCDate() !== d) {
      throw fieldError(ErrorCode.BadRequest, field, 'date', (lang) => FieldMessage.invalid(field, lang === 'zh' ? `没有 ${v.trim()} 这一天` : `there is no day ${v.trim()}`, lang));
    }
    return ms - CHINA_OFFSET_MS;
  }
  const ms = v as number;
  return Math.floor((ms + CHINA_OFFSET_MS) / 86_400_000) * 86_400_000 - CHINA_OFFSET_MS;
}

/** The VIN as stored, or a 400 naming `vin` with the domain rule's message. */
function checkedVin(raw: string): string {
  const vin = normalizeVin(raw);
  const problem = vinProblem(vin);
  if (problem) throw fieldError(ErrorCode.BadRequest, 'vin', problem, VehicleMessages.vin(problem));
  return vin;
}

function checkedChannels(raw: unknown): VehicleChannel[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw as { channel: number; kind?: 'video' | 'audio'; name: string }[];
  const seen = new Set<number>();
  for (const c of list) {
    if (seen.has(c.channel)) throw fieldError(ErrorCode.BadRequest, 'channels', 'duplicate', VehicleMessages.channelTwice(c.channel), { channel: c.channel });
    seen.add(c.channel);
  }
  return list.map((c) => ({ channel: c.channel, kind: c.kind ?? 'video', name: c.name.trim() })).sort((a, b) => a.channel - b.channel);
}

/** Fields shared by create and update, trimmed and checked; `companyPath` is the vehicle's company. */
async function prepared(c: CallContext, body: Fields, companyPath: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {
    vehiidno: str(body.vehiidno), plateColor: body.plateColor, vehicleType: body.vehicleType, status: body.status,
    insuranceExpire: expiryDay(body.insuranceExpire, 'insuranceExpire'), inspectionExpire: expiryDay(body.inspectionExpire, 'inspectionExpire'), remark: str(body.remark),
    lineId: body.lineId, deviceNo: typeof body.deviceNo === 'string' ? body.deviceNo.padStart(DEVICE_LIMITS.deviceNoLength, '0') : body.deviceNo, channels: checkedChannels(body.channels), driverIds: body.driverIds,
    vin: body.vin === undefined ? undefined : checkedVin(body.vin as string),
  };
  const lineId = body.lineId as number | null | undefined;
  if (lineId != null && !await c.storage.vehicles.lineInSubtree(lineId, companyPath)) {
    throw fieldError(ErrorCode.BadRequest, 'lineId', 'noSuchLine', VehicleMessages.noSuchLine);
  }
  const driverIds = body.driverIds as number[] | undefined;
  if (driverIds?.length) {
    const found = await c.storage.vehicles.driversInScope(c.ctx.scope, driverIds);
    const missing = driverIds.find((id) => !found.has(id));
    if (missing !== undefined) throw fieldError(ErrorCode.BadRequest, 'driverIds', 'noSuchDriver', VehicleMessages.noSuchDriver(missing), { id: missing });
  }
  return out;
}

/** Vehicles whose live side must follow once the write's answer is sent (see services/fleet-assets/vehicles.ts). */
export class PendingVehicleSync {
  readonly vehicles = new Set<number>();
  readonly devices = new Set<string>();
}

function write(input: Fields): Partial<VehicleWrite> {
  return {
    vehiidno: input.vehiidno as string | undefined, plateColor: input.plateColor as number | undefined, companyId: input.companyId as number | undefined,
    lineId: input.lineId as number | null | undefined, vin: input.vin as string | undefined, vehicleType: input.vehicleType as string | undefined,
    status: input.status as number | undefined, insuranceExpire: input.insuranceExpire as number | null | undefined,
    inspectionExpire: input.inspectionExpire as number | null | undefined, remark: input.remark as string | undefined,
  };
}

/** What the list, detail and create/update answers carry: the record, its expiry states, channels and drivers. */
export async function vehicleViews(repos: Repositories, records: VehicleRecord[], now = Date.now()): Promise<unknown[]> {
  const missing = records.filter((r) => !r.channels).map((r) => r.id);
  const extras = await repos.vehicles.extras(missing);
  return records.map((r) => {
    const x = extras.get(r.id);
    const drivers = r.drivers ?? x?.drivers ?? [];
    return {
      ...r, channels: r.channels ?? x?.channels ?? [], drivers, driverIds: drivers.map((d) => d.id),
      insuranceState: expiryState(r.insuranceExpire, now), inspectionState: expiryState(r.inspectionExpire, now),
    };
  });
}

const dateText = (ms: number | null) => (ms === null ? '' : chinaTimeText(ms).slice(0, 10));
const word = (names: readonly [string, string] | undefined, lang: Lang) => names?.[lang === 'zh' ? 0 : 1] ?? '';

/** A plate colour or vehicle type cell: the code or the name in either language (`importCells` turns it into the code). */
const WordCell = Type.Union([Type.Integer(), Type.String({ minLength: 1, maxLength: 32 })]);

const importColumns: ImportColumn[] = [
  { key: 'vehiidno', header: ['车牌号', 'Plate'], schema: createFields.vehiidno, required: true },
  { key: 'plateColor', header: ['车牌颜色', 'Plate colour'], schema: WordCell, required: false },
  { key: 'vin', header: ['车架号', 'VIN'], schema: VinField, required: true },
  { key: 'vehicleType', header: ['车辆类型', 'Vehicle type'], schema: WordCell, required: false },
  // Excel keeps a typed 013800000042 as the number 13800000042: up to 12 digits, the leading zeros put back (`prepared`).
  { key: 'deviceNo', header: ['设备号', 'Device no.'], schema: Type.String({ pattern: '^[0-9]{1,12}$' }), required: false },
  { key: 'status', header: ['状态', 'Status'], schema: StatusField, required: false },
  { key: 'insuranceExpire', header: ['保险到期', 'Insurance expiry'], schema: ExpiryCell, required: false },
  { key: 'inspectionExpire', header: ['年检到期', 'Inspection expiry'], schema: ExpiryCell, required: false },
  { key: 'remark', header: ['备注', 'Remark'], schema: Text(L.remarkMax), required: false },
];

export const VehicleImportMessages = {
  plateColor: (cell: unknown): Message => (lang) => (lang === 'zh'
    ? `「${String(cell)}」不是车牌颜色，请填写代码或名称：${plateColorChoices('zh')}`
    : `"${String(cell)}" is not a plate colour; enter a code or a name: ${plateColorChoices('en')}`),
  vehicleType: (cell: unknown): Message => (lang) => (lang === 'zh'
    ? `「${String(cell)}」不是车辆类型，请填写代码或名称：${vehicleTypeChoices('zh')}`
    : `"${String(cell)}" is not a vehicle type; enter a code or a name: ${vehicleTypeChoices('en')}`),
} as const;

/** The import's plate colour and vehicle type cells as codes: `1`, 蓝色, 蓝 and Blue are all 1; 货车, Truck and truck are `truck`. */
export function importCells(fields: Fields): Fields {
  const out: Record<string, unknown> = { ...fields };
  if (fields.plateColor !== undefined) {
    out.plateColor = plateColorOf(fields.plateColor as string | number);
    if (out.plateColor === undefined) throw fieldError(ErrorCode.BadRequest, 'plateColor', 'enum', VehicleImportMessages.plateColor(fields.plateColor), { value: fields.plateColor });
  }
  if (fields.vehicleType !== undefined) {
    out.vehicleType = vehicleTypeOf(fields.vehicleType as string | number);
    if (out.vehicleType === undefined) throw fieldError(ErrorCode.BadRequest, 'vehicleType', 'enum', VehicleImportMessages.vehicleType(fields.vehicleType), { value: fields.vehicleType });
  }
  return out;
}

/** The template's notes: what each column takes. */
const importHints: Record<string, Message> = {
  vehiidno: pair('必填，全平台唯一，如 京A12345', 'Required, unique across the platform, e.g. 京A12345'),
  plateColor: (lang) => (lang === 'zh'
    ? `填写代码或名称（中文、英文均可，颜色也可只写一个字，如「蓝」）：${plateColorChoices('zh')}。留空为 0 未上牌`
    : `Enter the code or the name, in Chinese or English (e.g. 1, 蓝色 or Blue): ${plateColorChoices('en')}. Empty: 0 No plate`),
  vin: pair('必填，17 位车架号（第 9 位为校验位）', 'Required: the 17-character VIN (the 9th is its check digit)'),
  vehicleType: (lang) => (lang === 'zh'
    ? `填写代码或名称（中文、英文均可）：${vehicleTypeChoices('zh')}。可留空`
    : `Enter the code or the name, in Chinese or English (e.g. truck, 货车 or Truck): ${vehicleTypeChoices('en')}. May be empty`),
  deviceNo: pair('12 位设备号，须已在设备管理中录入；留空则不绑定设备', 'The 12-digit device number, entered on the device page first; empty: no device'),
  status: pair('1 在用，0 停用；留空为 1', '1 in service, 0 retired; empty: 1'),
  insuranceExpire: pair('日期，如 2026-12-01（Excel 日期亦可）', 'A date, e.g. 2026-12-01 (an Excel date too)'),
  inspectionExpire: pair('日期，如 2026-12-01（Excel 日期亦可）', 'A date, e.g. 2026-12-01 (an Excel date too)'),
  remark: pair(`可留空，最多 ${L.remarkMax} 字`, `May be empty, ${L.remarkMax} characters at most`),
};

/** A new vehicle's row: the written fields with the defaults of an omitted cell or field. */
function newVehicle(input: Fields): VehicleWrite {
  const w = write(input);
  return {
    vehiidno: w.vehiidno!, plateColor: w.plateColor ?? 0, companyId: w.companyId!, lineId: w.lineId ?? null, vin: w.vin!,
    vehicleType: w.vehicleType ?? '', status: w.status ?? 1, insuranceExpire: w.insuranceExpire ?? null,
    inspectionExpire: w.inspectionExpire ?? null, remark: w.remark ?? '',
  };
}

/**
 * A created vehicle's log entry without reading it back (the import's write path): the row is `newVehicle`,
 * its channels are the prepared list (sorted, trimmed). Drivers are logged by name: with drivers the record is read.
 */
function createdLog(_id: number, input: Fields): LoggedRecord | undefined {
  if ((input.driverIds as number[] | undefined)?.length) return undefined;
  const v = newVehicle(input);
  return { label: v.vehiidno, companyId: v.companyId, fields: loggedFields({ ...v, channels: input.channels as VehicleChannel[] | undefined, drivers: [] }) };
}

/** The logged fields: what an operator changes on the form (the device has its own bind / unbind rows). */
function loggedFields(r: VehicleWrite & Pick<VehicleRecord, 'channels' | 'drivers'>): Record<string, unknown> {
  return {
    vehiidno: r.vehiidno, plateColor: r.plateColor, vin: r.vin, companyId: r.companyId, lineId: r.lineId, vehicleType: r.vehicleType,
    status: r.status, insuranceExpire: r.insuranceExpire, inspectionExpire: r.inspectionExpire, remark: r.remark,
    channels: (r.channels ?? []).map((c) => `${c.channel}${c.name ? `:${c.name}` : ''}`).join(','),
    drivers: (r.drivers ?? []).map((d) => d.name).join(','),
  };
}

/** `flush` tells the live side about `pending` (after a commit: an import's `committed`, and the routes' onResponse). */
export function vehicleResource(pending: PendingVehicleSync, flush: () => Promise<void> = async () => {}): ResourceDeclaration<VehicleRecord> {
  return {
    name: 'vehicle',
    store: (repos) => ({
      get: (scope, id) => repos.vehicles.get(scope, id),
      page: (scope, req) => repos.vehicles.page(scope, req as typeof req & VehicleFilters),
      create: (input) => repos.vehicles.create(newVehicle(input)),
      update: (id, patch) => repos.vehicles.update(id, { ...write(patch), companyId: undefined }),
      delete: (record) => repos.vehicles.delete(record.id),
    }),
    view: (repos, records) => vehicleViews(repos, records),
    page: { method: 'GET', url: '/service-priv/vehicle', permission: page, filters: vehicleFilters },
    create: { method: 'POST', url: '/service-priv/vehicle', permission: `${page}:create`, fields: createFields },
    update: { method: 'PUT', url: '/service-priv/vehicle', permission: `${page}:update`, fields: updateFields },
    delete: { method: 'DELETE', url: '/service-priv/vehicle', permission: `${page}:delete`, input: 'body' },
    import: {
      endpoint: { method: 'POST', url: '/service-priv/vehicle/import', permission: `${page}:import` },
      columns: importColumns,
      maxRows: L.importRowsMax,
      // The job's rows commit after its start call answered: the live side hears of them here.
      committed: (ids) => {
        for (const id of ids) pending.vehicles.add(id);
        return flush();
      },
      cells: importCells,
      // checkWrite is the plate rule (vehiidno is UNIQUE) and the dictionary codes, both run on every row in the check phase:
      // the write transaction checks a row again only when its insert clashes.
      checkOnConflict: true,
      template: {
        method: 'GET', url: '/service-priv/vehicle/import_template', permission: `${page}:import`, fileName: ['车辆导入模板', 'vehicle_import_template'],
        asciiName: 'vehicle_import_template', hints: importHints,
      },
      job: {
        start: { method: 'POST', url: '/service-priv/vehicle/v3/batchimp', permission: `${page}:import` },
        status: { method: 'GET', url: '/service-priv/vehicle/batch/status', permission: `${page}:import` },
      },
    },
    export: {
      ...exportEndpoints('/service-priv/vehicle', `${page}:export`),
      cap: 100_000,
      list: (repos, scope, filters, limit) => firstRows((s, req) => repos.vehicles.page(s, req as typeof req & VehicleFilters), scope, filters, limit),
      fileName: ['车辆', 'vehicles'],
      asciiName: 'vehicles',
      columns: (lang) => [
        { header: ['车牌号', 'Plate'], width: 14, value: (v) => v.vehiidno },
        { header: ['车牌颜色', 'Plate colour'], width: 10, value: (v) => word(PLATE_COLOR_NAMES[v.plateColor as PlateColor], lang) },
        { header: ['车架号', 'VIN'], width: 20, value: (v) => v.vin },
        { header: ['所属公司', 'Company'], width: 20, value: (v) => v.companyName },
        { header: ['线路', 'Line'], width: 14, value: (v) => v.lineName ?? '' },
        { header: ['车辆类型', 'Vehicle type'], width: 14, value: (v) => word(VEHICLE_TYPE_NAMES[v.vehicleType as VehicleType], lang) },
        { header: ['设备号', 'Device no.'], width: 14, value: (v) => v.deviceNo ?? '' },
        { header: ['状态', 'Status'], width: 8, value: (v) => (v.status === 1 ? word(['在用', 'In service'], lang) : word(['停用', 'Retired'], lang)) },
        { header: ['保险到期', 'Insurance expiry'], width: 12, value: (v) => dateText(v.insuranceExpire) },
        { header: ['年检到期', 'Inspection expiry'], width: 12, value: (v) => dateText(v.inspectionExpire) },
        { header: ['备注', 'Remark'], width: 30, value: (v) => v.remark },
      ],
    },
    changeLog: { resource: 'vehicle', label: (v) => v.vehiidno, companyId: (v) => v.companyId, fields: loggedFields, created: createdLog },
    hooks: {
      async prepareCreate(c, body) {
        // A new vehicle belongs to the company selected in the tree (else the caller's own): inside the caller's subtree (403).
        const companyId = (body.companyId as number | undefined) ?? c.ctx.user.companyId;
        const scope = await narrowedScope(c.storage, c.ctx, companyId) as Extract<Scope, { all: false }>;
        return { ...await prepared(c, body, scope.rootPath), companyId };
      },
      async prepareUpdate(c, record, body) {
        // `companyId` on an update is the tree selection the console sends with every call, never a move (modifyVehiCompany moves).
        return { ...await prepared(c, body, record.path), companyId: record.companyId };
      },
      async checkWrite(tx, input, record, c) {
        // The code lists read the data dictionary (issue 19): an enabled code, or the one the vehicle has.
        checkDictCode(c.storage, 'plateColor', input.plateColor, record?.plateColor);
        checkDictCode(c.storage, 'vehicleType', input.vehicleType, record?.vehicleType);
        const plate = input.vehiidno as string | undefined;
        if (plate !== undefined && plate !== record?.vehiidno && await tx.vehicles.plateOwner(plate, record?.id)) {
          throw fieldError(ErrorCode.Conflict, 'vehiidno', 'taken', VehicleMessages.plateTaken(plate));
        }
      },
      async afterWrite(tx, id, input, record, c) {
        const channels = input.channels as VehicleChannel[] | undefined;
        if (channels) await tx.vehicles.setChannels(id, channels);
        const driverIds = input.driverIds as number[] | undefined;
        if (driverIds) await tx.vehicles.setDrivers(id, driverIds);
        const deviceNo = input.deviceNo as string | null | undefined;
        if (deviceNo !== undefined && deviceNo !== (record?.deviceNo ?? null)) {
          const r = await changeDevice(tx, {
            vehicleId: id, deviceNo, userId: c.ctx.user.id, userName: c.ctx.user.realName || c.ctx.user.username, ip: c.ip, scope: c.ctx.scope,
          });
          for (const d of r.devices) pending.devices.add(d);
        }
        pending.vehicles.add(id);
      },
      async checkDelete(tx, record, c) {
        if (await tx.vehicles.hasHistory(record.id)) throw new AppError(ErrorCode.Conflict, VehicleMessages.hasHistory(record.vehiidno));
        if (record.deviceNo !== null) {
          const r = await changeDevice(tx, { vehicleId: record.id, deviceNo: null, userId: c.ctx.user.id, userName: c.ctx.user.realName || c.ctx.user.username, ip: c.ip });
          for (const d of r.devices) pending.devices.add(d);
        }
        pending.vehicles.add(record.id);
      },
    },
  };
}
