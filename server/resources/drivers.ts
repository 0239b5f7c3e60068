/**
 * Drivers (/information/driver, issue 15), declared on the resource layer: list, create, update,
 * delete (body `{ids}`), .xlsx import (+ template, + the large-file job the import helper serves) and
 * export, each behind its button bit, with the operator-log row of every write. The calls the layer
 * does not cover (photo, sign-ins) are in server/services/fleet-assets/drivers.ts.
 *
 * Rules: a driver belongs to a company in the caller's subtree (403 otherwise); the qualification
 * certificate number is unique when entered (409), because a 0x0702 sign-in links to the driver by
 * it; every vehicle driven lies inside the driver's company subtree (400 naming `vehicleIds`), at
 * most 500; expiry dates are stored as the start of their China day.
 */
import { Type } from '@fastify/type-provider-typebox';
import { CERT_NO_PATTERN, chinaDayStart, DATE_PATTERN, formatChinaDate, LICENCE_NO_PATTERN, parseChinaDate } from '../../domain/fleet/driver.ts';
import { DRIVER_LIMITS as L, LICENCE_CLASSES, PHONE_PATTERN, type LicenceClass } from '../../domain/fleet/limits.ts';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import type { Driver, DriverFilter, DriverInput } from '../db/driver-types.ts';
import type { Storage } from '../db/repositories.ts';
import type { Scope } from '../db/scope.ts';
import { narrowedScope, type AuthContext } from '../http/auth.ts';
import { AppError } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { EpochMs, Id, Name, Text } from '../http/route.ts';
import { checkDictCode } from './dictionary-codes.ts';
import type { ImportColumn } from './import.ts';
import { exportEndpoints, type Fields, type ResourceDeclaration } from './resource.ts';

const page = '/information/driver' as const;
const BASE = '/service-priv/driver';

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const DriverMessages = {
  certTaken: (cert: string, holder: string): Message => pair(`从业资格证号「${cert}」已属于司机「${holder}」`, `The certificate number "${cert}" already belongs to the driver "${holder}"`),
  vehiclesOutside: (count: number): Message =>
    pair(`有 ${count} 辆车不存在或不属于司机所属公司及其下级`, `${count} vehicle(s) do not exist or are outside the driver's company and its subsidiaries`),
  platesUnknown: (plates: string): Message => pair(`车辆「${plates}」不存在或不属于司机所属公司及其下级`, `The vehicle(s) "${plates}" do not exist or are outside the driver's company`),
  tooManyVehicles: pair(`一名司机最多绑定 ${L.vehiclesMax} 辆车`, `A driver drives at most ${L.vehiclesMax} vehicles`),
  badDate: (field: string): Message => pair(`字段 ${field} 不合法：不是有效日期（YYYY-MM-DD）`, `Field ${field} is invalid: not a valid date (YYYY-MM-DD)`),
} as const;

const LicenceClassField = Type.Union([Type.Literal(''), ...LICENCE_CLASSES.map((c) => Type.Literal(c))]);
const Status = Type.Union([Type.Literal(0), Type.Literal(1)]);
const Expiry = Type.Union([EpochMs, Type.Null()]);
const VehicleIds = Type.Array(Id, { maxItems: L.vehiclesMax, uniqueItems: true });

export const driverFields = {
  name: Name(L.nameMax),
  licenceNo: Type.Optional(Type.String({ maxLength: L.licenceNoMax, pattern: LICENCE_NO_PATTERN })),
  licenceClass: Type.Optional(LicenceClassField),
  licenceExpire: Type.Optional(Expiry),
  certNo: Type.Optional(Type.String({ maxLength: L.certNoMax, pattern: CERT_NO_PATTERN })),
  certAuthority: Type.Optional(Text(L.certAuthorityMax)),
  certExpire: Type.Optional(Expiry),
  phone: Type.Optional(Type.String({ maxLength: L.phoneMax, pattern: PHONE_PATTERN })),
  status: Type.Optional(Status),
  remark: Type.Optional(Text(L.remarkMax)),
  vehicleIds: Type.Optional(VehicleIds),
};

/** A date cell: an Excel date (read as epoch ms) or text `YYYY-MM-DD`. */
const DateCell = Type.Union([EpochMs, Type.String({ pattern: DATE_PATTERN })]);

export const driverImportColumns: ImportColumn[] = [
  { key: 'name', header: ['姓名', 'Name'], schema: driverFields.name, required: true },
  { key: 'licenceNo', header: ['驾驶证号', 'Licence no.'], schema: driverFields.licenceNo, required: false },
  { key: 'licenceClass', header: ['准驾车型', 'Licence class'], schema: LicenceClassField, required: false },
  { key: 'licenceExpire', header: ['驾驶证有效期至', 'Licence valid until'], schema: DateCell, required: false },
  { key: 'certNo', header: ['从业资格证号', 'Certificate no.'], schema: driverFields.certNo, required: false },
  { key: 'certAuthority', header: ['发证机关', 'Issuing authority'], schema: driverFields.certAuthority, required: false },
  { key: 'certExpire', header: ['资格证有效期至', 'Certificate valid until'], schema: DateCell, required: false },
  { key: 'phone', header: ['联系电话', 'Phone'], schema: driverFields.phone, required: false },
  // Plates, separated by commas, 、 or spaces; each a vehicle of the driver's company subtree.
  { key: 'vehicles', header: ['驾驶车辆', 'Vehicles'], schema: Type.String({ maxLength: 20_000 }), required: false },
  { key: 'remark', header: ['备注', 'Remark'], schema: driverFields.remark, required: false },
];

const EXPIRY_FILTERS = ['licenceSoon', 'licenceExpired', 'certSoon', 'certExpired'] as const;
export const driverFilters = {
  keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
  status: Type.Optional(Status),
  expiry: Type.Optional(Type.Union(EXPIRY_FILTERS.map((e) => Type.Literal(e)))),
};

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);

/** An expiry as sent (epoch ms, null to clear) or as imported (ms or `YYYY-MM-DD`) → the start of its China day. */
function expiry(field: string, v: unknown): number | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v === 'number') return chinaDayStart(v);
  const ms = parseChinaDate(String(v).trim());
  if (ms === undefined) throw new AppError(ErrorCode.BadRequest, DriverMessages.badDate(field), null, { [field]: { code: 'date' } });
  return ms;
}

/** The driver fields of a body, trimmed and normalised (absent stays absent: an update keeps it). */
function normalised(body: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: str(body.name), licenceNo: str(body.licenceNo), licenceClass: body.licenceClass, licenceExpire: expiry('licenceExpire', body.licenceExpire),
    certNo: str(body.certNo), certAuthority: str(body.certAuthority), certExpire: expiry('certExpire', body.certExpire), phone: str(body.phone),
    status: body.status, remark: str(body.remark),
  };
  if (typeof out.licenceNo === 'string') out.licenceNo = out.licenceNo.toUpperCase();
  if (typeof out.certNo === 'string') out.certNo = out.certNo.toUpperCase();
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** Every vehicle must be a vehicle of `target` (the driver's company subtree), else 400 naming `vehicleIds`. */
async function checkVehicles(storage: Storage, target: Scope, ids: readonly number[]): Promise<void> {
  const inside = await storage.drivers.vehiclesIn(target, ids);
  const outside = ids.filter((id) => !inside.has(id));
  if (outside.length > 0) throw new AppError(ErrorCode.BadRequest, DriverMessages.vehiclesOutside(outside.length), null, { vehicleIds: { code: 'vehicleOutside', params: { ids: outside.slice(0, 20) } } });
}

/** The import's `vehicles` cell (plates) → vehicle ids of the driver's company subtree. */
async function platesToIds(storage: Storage, target: Scope, cell: string): Promise<number[]> {
  const plates = [...new Set(cell.split(/[,，、;；\s]+/).map((p) => p.trim()).filter(Boolean))];
  if (plates.length > L.vehiclesMax) throw new AppError(ErrorCode.BadRequest, DriverMessages.tooManyVehicles, null, { vehicles: { code: 'maxItems', params: { limit: L.vehiclesMax } } });
  const found = await storage.drivers.vehicleIdsByPlate(target, plates);
  const missing = plates.filter((p) => !found.has(p));
  if (missing.length > 0) throw new AppError(ErrorCode.BadRequest, DriverMessages.platesUnknown(missing.slice(0, 5).join('、')), null, { vehicles: { code: 'vehicleOutside' } });
  return plates.map((p) => found.get(p)!);
}

async function prepareCreate(ctx: AuthContext, storage: Storage, body: Fields): Promise<Fields> {
  // A new driver belongs to the company sent (the form's, or the tree's), else the caller's own; in the caller's subtree or 403.
  const companyId = (body.companyId as number | undefined) ?? ctx.user.companyId;
  const target = await narrowedScope(storage, ctx, companyId);
  const fields: Record<string, unknown> = { ...normalised(body), companyId };
  if (Array.isArray(body.vehicleIds)) {
    await checkVehicles(storage, target, body.vehicleIds as number[]);
    fields.vehicleIds = body.vehicleIds;
  } else if (typeof body.vehicles === 'string') fields.vehicleIds = await platesToIds(storage, target, body.vehicles);
  return fields;
}

/** The fields the operator log compares and keeps. */
function logged(d: Driver): Record<string, unknown> {
  return {
    name: d.name, companyId: d.companyId, licenceNo: d.licenceNo, licenceClass: d.licenceClass, licenceExpire: d.licenceExpire,
    certNo: d.certNo, certAuthority: d.certAuthority, certExpire: d.certExpire, phone: d.phone, status: d.status, remark: d.remark,
    vehicles: d.vehicles.map((v) => v.vehiidno),
  };
}

const STATUS_NAME = { 1: ['在职', 'Active'], 0: ['停用', 'Disabled'] } as const;

export const driverResource: ResourceDeclaration<Driver> = {
  name: 'driver',
  notFound: pair('司机不存在', 'The driver does not exist'),
  store: (repos) => ({
    get: (scope, id) => repos.drivers.get(scope, id),
    page: (scope, req) => repos.drivers.page(scope, req as typeof req & DriverFilter),
    create: (input) => repos.drivers.create({
      companyId: input.companyId as number, name: input.name as string, licenceNo: (input.licenceNo as string | undefined) ?? '',
      licenceClass: (input.licenceClass as LicenceClass | '' | undefined) ?? '', licenceExpire: (input.licenceExpire as number | null | undefined) ?? null,
      certNo: (input.certNo as string | undefined) ?? '', certAuthority: (input.certAuthority as string | undefined) ?? '',
      certExpire: (input.certExpire as number | null | undefined) ?? null, phone: (input.phone as string | undefined) ?? '',
      status: (input.status as 0 | 1 | undefined) ?? 1, remark: (input.remark as string | undefined) ?? '',
    }),
    update: (id, patch) => repos.drivers.update(id, patch as Partial<DriverInput>),
    delete: (record) => repos.drivers.delete(record.id),
  }),
  page: { method: 'GET', url: BASE, permission: page, filters: driverFilters },
  create: { method: 'POST', url: BASE, permission: `${page}:create`, fields: driverFields },
  update: { method: 'PUT', url: BASE, permission: `${page}:update`, fields: { ...driverFields, name: Type.Optional(driverFields.name) } },
  delete: { method: 'DELETE', url: BASE, permission: `${page}:delete`, input: 'body' },
  import: {
    endpoint: { method: 'POST', url: `${BASE}/import`, permission: `${page}:import` },
    columns: driverImportColumns,
    maxRows: L.importRowsMax,
    template: { method: 'GET', url: `${BASE}/import_template`, permission: `${page}:import`, fileName: ['司机导入模板', 'driver_import_template'], asciiName: 'driver_import_template' },
    job: {
      start: { method: 'POST', url: `${BASE}/batchimp`, permission: `${page}:import` },
      status: { method: 'GET', url: `${BASE}/batch/status`, permission: `${page}:import` },
    },
  },
  export: {
    ...exportEndpoints(BASE, `${page}:export`),
    cap: 10_000,
    list: (repos, scope, filters, limit) => repos.drivers.list(scope, filters as DriverFilter, limit),
    fileName: ['司机', 'drivers'],
    asciiName: 'drivers',
    columns: (lang) => [
      { header: ['姓名', 'Name'], width: 14, value: (d) => d.name },
      { header: ['所属公司', 'Company'], width: 20, value: (d) => d.companyName },
      { header: ['驾驶证号', 'Licence no.'], width: 22, value: (d) => d.licenceNo },
      { header: ['准驾车型', 'Licence class'], width: 10, value: (d) => d.licenceClass },
      { header: ['驾驶证有效期至', 'Licence valid until'], width: 16, value: (d) => formatChinaDate(d.licenceExpire) },
      { header: ['从业资格证号', 'Certificate no.'], width: 22, value: (d) => d.certNo },
      { header: ['发证机关', 'Issuing authority'], width: 20, value: (d) => d.certAuthority },
      { header: ['资格证有效期至', 'Certificate valid until'], width: 16, value: (d) => formatChinaDate(d.certExpire) },
      { header: ['联系电话', 'Phone'], width: 16, value: (d) => d.phone },
      { header: ['驾驶车辆', 'Vehicles'], width: 30, value: (d) => d.vehicles.map((v) => v.vehiidno).join(',') },
      { header: ['当前签到车辆', 'Signed in on'], width: 14, value: (d) => d.signedIn?.vehiidno ?? '' },
      { header: ['状态', 'Status'], width: 8, value: (d) => STATUS_NAME[d.status][lang === 'zh' ? 0 : 1] },
      { header: ['备注', 'Remark'], width: 30, value: (d) => d.remark },
    ],
  },
  changeLog: {
    resource: 'driver',
    label: (d) => (d.certNo ? `${d.name} (${d.certNo})` : d.name),
    companyId: (d) => d.companyId,
    fields: logged,
  },
  hooks: {
    prepareCreate: ({ ctx, storage }, body) => prepareCreate(ctx, storage, body),
    async prepareUpdate({ ctx, storage }, record, body) {
      // `companyId` on an update is the driver's company (the form always sends it): a change moves the driver inside the caller's subtree.
      const companyId = (body.companyId as number | undefined) ?? record.companyId;
      const target = await narrowedScope(storage, ctx, companyId);
      const fields: Record<string, unknown> = { ...normalised(body), companyId };
      const existing = await storage.drivers.vehicleIds(record.id);
      if (Array.isArray(body.vehicleIds)) {
        await checkVehicles(storage, target, body.vehicleIds as number[]);
        // Bindings to vehicles the caller cannot see (moved to a company outside its subtree) are not the caller's to drop.
        const visible = await storage.drivers.vehiclesIn(ctx.scope, existing);
        fields.vehicleIds = [...new Set([...(body.vehicleIds as number[]), ...existing.filter((id) => !visible.has(id))])];
      } else if (companyId !== record.companyId) {
        await checkVehicles(storage, target, existing);
      }
      return fields;
    },
    async checkWrite(tx, input, record, c) {
      // The licence classes read the data dictionary (issue 19): an enabled code, or the one the driver has.
      checkDictCode(c.storage, 'licenceClass', input.licenceClass, record?.licenceClass);
      const cert = input.certNo as string | undefined;
      if (cert) {
        const holder = await tx.drivers.certTaken(cert, record?.id);
        if (holder) throw new AppError(ErrorCode.Conflict, DriverMessages.certTaken(cert, holder.name), null, { certNo: { code: 'taken' } });
      }
    },
    async afterWrite(tx, id, input) {
      if (Array.isArray(input.vehicleIds)) await tx.drivers.setVehicles(id, input.vehicleIds as number[]);
      // Sign-ins reported before the driver (or this certificate) was entered now name the driver.
      if (typeof input.certNo === 'string' && input.certNo !== '') await tx.drivers.linkSignIns(id, input.certNo);
    },
  },
};
