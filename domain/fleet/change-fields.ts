/**
 * The operator log's words (issue 15, `change_log`): which screen each logged resource belongs to, the
 * operations, and every logged field's name in Chinese and English with how its value reads. One
 * source for the console's log pages and trail (src/features/operator-log) and the server's export
 * sheet (server/services/fleet-assets/operator-log.ts), so a change reads the same everywhere:
 * `车牌颜色: 蓝色 → 黄色` / `Plate colour: Blue → Yellow`.
 *
 * A field this table does not know still shows (its key as the name, its value as text), so a new
 * logged field is never hidden; bookkeeping fields (id, path, times of the row) are not shown at all.
 */
import { PLATE_COLOR_NAMES, VEHICLE_TYPE_NAMES, type PlateColor, type VehicleType } from './limits.ts';

export type ChangeLang = 'zh' | 'en';

/** The resources that leave operator-log rows, each with the screen (permission route) its records belong to. */
export const CHANGE_RESOURCE_ROUTES = {
  vehicle: '/information/vehicle',
  device: '/information/device',
  driver: '/information/driver',
  installation: '/information/vehicle_installed',
  line: '/information/lineManagement',
} as const;
export type ChangeResourceName = keyof typeof CHANGE_RESOURCE_ROUTES;
export const CHANGE_RESOURCES = Object.keys(CHANGE_RESOURCE_ROUTES) as ChangeResourceName[];

/** The resource whose trail a list screen shows (the kit's audit slot), or undefined for other screens. */
export function changeResourceOfRoute(route: string): ChangeResourceName | undefined {
  return CHANGE_RESOURCES.find((r) => CHANGE_RESOURCE_ROUTES[r] === route);
}

/** The two log screens (spec /information/operatorLogManagement/…) and the resource each searches. */
export const CHANGE_LOG_SCREENS = {
  vehicle: '/information/operatorLogManagement/vehicleLog',
  device: '/information/operatorLogManagement/deviceLog',
} as const;

/** The longest period one log search or export covers (days, both ends included). */
export const CHANGE_LOG_MAX_SPAN_DAYS = 92;
/**
 * What is wrong with a search's inclusive bounds (epoch ms), or null: the end before the start, or
 * the two more than 92 days apart. Both ends or neither: a period given by one end only is 'missing'.
 */
export function changeLogPeriodProblem(from: number | undefined, to: number | undefined): 'missing' | 'order' | 'span' | null {
  if (from === undefined && to === undefined) return null;
  if (from === undefined || to === undefined) return 'missing';
  if (to < from) return 'order';
  return to - from > CHANGE_LOG_MAX_SPAN_DAYS * 86_400_000 ? 'span' : null;
}

/** Rows of one log export at most. */
export const CHANGE_LOG_EXPORT_CAP = 50_000;
/** Longest keyword of a log search (plate / device number / operator). */
export const CHANGE_LOG_KEYWORD_MAX = 64;

/** Operations writers log (an unknown one shows as its code). */
export const CHANGE_OPERATIONS = ['create', 'update', 'delete', 'import', 'move', 'bind', 'unbind', 'replace', 'register', 'resetRegistration', 'faceSync'] as const;
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];
const OPERATION_NAMES: Record<ChangeOperation, readonly [zh: string, en: string]> = {
  create: ['新增', 'Created'], update: ['修改', 'Edited'], delete: ['删除', 'Deleted'], import: ['导入', 'Imported'],
  move: ['转移公司', 'Moved'], bind: ['绑定设备', 'Device bound'], unbind: ['解绑设备', 'Device unbound'],
  replace: ['更换设备', 'Device replaced'], register: ['终端自动注册', 'Auto-registered'],
  resetRegistration: ['重置注册', 'Registration reset'],
  faceSync: ['同步人脸库', 'Synced to face library'],
};

export function operationName(op: string, lang: ChangeLang): string {
  const names = (OPERATION_NAMES as Record<string, readonly [string, string]>)[op];
  return names ? names[lang === 'zh' ? 0 : 1] : op;
}

/** What a referenced id is: its name comes from the answer's `names` (server-resolved within the reader's scope). */
export type RefKind = 'company' | 'line' | 'deviceType' | 'vehicle' | 'driver';

type Kind =
  | { type: 'text' } | { type: 'date' } | { type: 'time' } | { type: 'plateColor' } | { type: 'vehicleType' }
  | { type: 'status' } | { type: 'protocol' } | { type: 'bool' } | { type: 'count' }
  | { type: 'words'; words: Readonly<Record<string, readonly [zh: string, en: string]>> }
  | { type: 'ref'; ref: RefKind } | { type: 'refs'; ref: RefKind } | { type: 'list' };

interface FieldDef { readonly zh: string; readonly en: string; readonly kind: Kind }

const text: Kind = { type: 'text' };
const date: Kind = { type: 'date' };
const time: Kind = { type: 'time' };
const f = (zh: string, en: string, kind: Kind = text): FieldDef => ({ zh, en, kind });

/** Every logged field, keyed as the writers log it (vehicles, devices, drivers, installations, lines, registrations). */
export const CHANGE_FIELDS: Readonly<Record<string, FieldDef>> = {
  // vehicle
  vehiidno: f('车牌号', 'Plate'),
  plate: f('车牌号', 'Plate'),
  plateColor: f('车牌颜色', 'Plate colour', { type: 'plateColor' }),
  vin: f('车架号(VIN)', 'VIN'),
  companyId: f('所属公司', 'Company', { type: 'ref', ref: 'company' }),
  companyName: f('所属公司', 'Company'),
  lineId: f('所属线路', 'Line', { type: 'ref', ref: 'line' }),
  lineName: f('所属线路', 'Line'),
  deviceNo: f('设备号', 'Device no.'),
  vehicleType: f('车辆类型', 'Vehicle type', { type: 'vehicleType' }),
  status: f('状态', 'Status', { type: 'status' }),
  insuranceExpire: f('保险到期日', 'Insurance expires', date),
  inspectionExpire: f('年检到期日', 'Inspection due', date),
  channels: f('视频通道', 'Video channels', { type: 'list' }),
  channelCount: f('通道数', 'Channels', { type: 'count' }),
  drivers: f('司机', 'Drivers', { type: 'list' }),
  driverIds: f('司机', 'Drivers', { type: 'refs', ref: 'driver' }),
  faceDriverIds: f('人脸库司机', 'Drivers in the face library', { type: 'refs', ref: 'driver' }),
  remark: f('备注', 'Remark'),
  // device
  terminalId: f('终端ID', 'Terminal ID'),
  model: f('终端型号', 'Model'),
  maker: f('制造商', 'Manufacturer'),
  makerId: f('制造商ID', 'Maker ID'),
  deviceTypeId: f('设备类型', 'Device type', { type: 'ref', ref: 'deviceType' }),
  deviceTypeName: f('设备类型', 'Device type'),
  protocol: f('协议版本', 'Protocol', { type: 'protocol' }),
  simIccid: f('SIM卡号(ICCID)', 'SIM (ICCID)'),
  installDate: f('安装日期', 'Installed on', date),
  source: f('来源', 'Source', { type: 'words', words: { operator: ['手工录入', 'Entered'], import: ['导入', 'Imported'], auto: ['自动注册', 'Auto-registered'] } }),
  vehicleId: f('绑定车辆', 'Vehicle', { type: 'ref', ref: 'vehicle' }),
  online: f('在线', 'Online', { type: 'bool' }),
  // driver
  name: f('名称', 'Name'),
  licenceNo: f('驾驶证号', 'Licence no.'),
  licenceClass: f('准驾车型', 'Licence class'),
  licenceExpire: f('驾驶证到期日', 'Licence expires', date),
  certNo: f('从业资格证号', 'Qualification cert.'),
  certAuthority: f('发证机关', 'Issued by'),
  certExpire: f('资格证到期日', 'Cert. expires', date),
  phone: f('联系电话', 'Phone'),
  photo: f('照片', 'Photo', { type: 'bool' }),
  vehicleIds: f('驾驶车辆', 'Vehicles driven', { type: 'refs', ref: 'vehicle' }),
  vehicles: f('驾驶车辆', 'Vehicles driven', { type: 'list' }),
  // installation record
  kind: f('类型', 'Kind', { type: 'words', words: { install: ['安装', 'Install'], remove: ['拆除', 'Removal'], replace: ['更换', 'Replacement'] } }),
  oldDeviceNo: f('原设备号', 'Old device no.'),
  newDeviceNo: f('新设备号', 'New device no.'),
  installer: f('安装人员', 'Installer'),
  installTime: f('安装时间', 'Installed at', time),
  photos: f('照片', 'Photos', { type: 'count' }),
  photoCount: f('照片数', 'Photos', { type: 'count' }),
  // line
  code: f('线路编号', 'Line code'),
  stations: f('站点', 'Stations', { type: 'list' }),
  // a direction's stations in order, logged as {name, lng, lat}: they read as their names
  upStations: f('上行站点', 'Stations (up)', { type: 'list' }),
  downStations: f('下行站点', 'Stations (down)', { type: 'list' }),
  // the line's vehicles: how many, and the plates a change put on or took off the line
  vehicleCount: f('车辆数', 'Vehicles', { type: 'count' }),
  added: f('加入车辆', 'Vehicles added', { type: 'list' }),
  removed: f('移出车辆', 'Vehicles removed', { type: 'list' }),
  // registration (0x0100 as the terminal reported it)
  authCode: f('鉴权码', 'Auth code'),
  registered: f('已注册', 'Registered', { type: 'bool' }),
  remoteAddress: f('终端地址', 'Terminal address'),
};

/** Bookkeeping the log's readers never need (the row itself says who and when). */
const HIDDEN = new Set(['id', 'path', 'createTime', 'updateTime', 'companyPath']);

/**
 * A referenced id logged beside its name at the time (`vehicleId` with `plate`): the name shows, the
 * id does not (the name then is what the operator saw; the id's name now may differ or be gone).
 */
const NAMED_BY: Readonly<Record<string, string>> = {
  companyId: 'companyName', lineId: 'lineName', deviceTypeId: 'deviceTypeName', vehicleId: 'plate', driverIds: 'drivers', vehicleIds: 'vehicles',
};

export function isShownField(key: string): boolean {
  return !HIDDEN.has(key);
}

export function fieldName(key: string, lang: ChangeLang): string {
  const def = CHANGE_FIELDS[key];
  return def ? def[lang] : key;
}

/** Names of referenced ids, resolved by the server for the rows it answers: `{company: {"12": "华东分公司"}}`. */
export type ChangeNames = Partial<Record<RefKind, Readonly<Record<string, string>>>>;

/** The referenced ids of a row's values per kind (what the server resolves into `names`). */
export function referencedIds(values: readonly (Readonly<Record<string, unknown>> | null)[]): Map<RefKind, Set<number>> {
  const out = new Map<RefKind, Set<number>>();
  const add = (ref: RefKind, v: unknown) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return;
    let set = out.get(ref);
    if (!set) out.set(ref, (set = new Set()));
    set.add(v);
  };
  for (const rec of values) {
    if (!rec) continue;
    for (const [key, v] of Object.entries(rec)) {
      const kind = CHANGE_FIELDS[key]?.kind;
      if (kind?.type === 'ref') add(kind.ref, v);
      else if (kind?.type === 'refs' && Array.isArray(v)) for (const x of v) add(kind.ref, x);
    }
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** China time (GMT+8), the clock every fleet date is kept in, whatever the reader's machine says. */
function chinaParts(ms: number) {
  const d = new Date(ms + 8 * 3_600_000);
  return { day: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`, clock: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` };
}

const REF_WORD: Record<RefKind, readonly [zh: string, en: string]> = {
  company: ['公司', 'company'], line: ['线路', 'line'], deviceType: ['设备类型', 'device type'], vehicle: ['车辆', 'vehicle'], driver: ['司机', 'driver'],
};

/** A name of `names`, else the kind and the id (a record outside the reader's scope or gone): `公司 #12`. */
function refText(ref: RefKind, id: unknown, lang: ChangeLang, names: ChangeNames | undefined): string {
  const name = names?.[ref]?.[String(id)];
  return name ?? `${REF_WORD[ref][lang === 'zh' ? 0 : 1]} #${String(id)}`;
}

/** One item of a list value: a name, a channel (`2 驾驶员`), a station, else JSON. */
function itemText(item: unknown): string {
  if (item === null || item === undefined) return '';
  if (typeof item !== 'object') return String(item);
  const o = item as Record<string, unknown>;
  if (typeof o.channel === 'number') return `${o.channel}${typeof o.name === 'string' && o.name ? ` ${o.name}` : ''}`;
  if (typeof o.name === 'string') return o.name;
  if (typeof o.vehiidno === 'string') return o.vehiidno;
  return JSON.stringify(item);
}

/** Empty: what a missing value reads as. */
export const EMPTY_VALUE = '—';

/** How one field's value reads in `lang`. */
export function fieldValue(key: string, value: unknown, lang: ChangeLang, names?: ChangeNames): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  const zh = lang === 'zh';
  const kind = CHANGE_FIELDS[key]?.kind ?? text;
  switch (kind.type) {
    case 'date': return typeof value === 'number' ? chinaParts(value).day : String(value);
    case 'time': {
      if (typeof value !== 'number') return String(value);
      const p = chinaParts(value);
      return `${p.day} ${p.clock}`;
    }
    case 'plateColor': {
      const n = (PLATE_COLOR_NAMES as Record<number, readonly [string, string]>)[value as PlateColor];
      return n ? n[zh ? 0 : 1] : String(value);
    }
    case 'vehicleType': {
      const n = (VEHICLE_TYPE_NAMES as Record<string, readonly [string, string]>)[value as VehicleType];
      return n ? n[zh ? 0 : 1] : String(value);
    }
    case 'status': return value === 1 ? (zh ? '在用' : 'In service') : value === 0 ? (zh ? '停用' : 'Retired') : String(value);
    case 'protocol': return typeof value === 'number' ? `JT/T 808-${value}` : String(value);
    case 'bool': return value === true || value === 1 ? (zh ? '是' : 'Yes') : value === false || value === 0 ? (zh ? '否' : 'No') : String(value);
    case 'count': return Array.isArray(value) ? String(value.length) : String(value);
    case 'words': {
      const w = kind.words[String(value)];
      return w ? w[zh ? 0 : 1] : String(value);
    }
    case 'ref': return refText(kind.ref, value, lang, names);
    case 'refs': return Array.isArray(value) ? (value.length === 0 ? EMPTY_VALUE : value.map((id) => refText(kind.ref, id, lang, names)).join(zh ? '、' : ', ')) : String(value);
    case 'list': return Array.isArray(value) ? (value.length === 0 ? EMPTY_VALUE : value.map(itemText).join(zh ? '、' : ', ')) : itemText(value);
    case 'text': return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

export interface ChangeLine {
  readonly key: string;
  readonly field: string;
  /** null: the row has no before (a create) or no after (a delete). */
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * The shown fields of one row in the table's order (known fields first as listed, then unknown keys):
 * a create lists its values, a delete what was deleted, a change each field before and after.
 */
export function changeLines(before: Readonly<Record<string, unknown>> | null, after: Readonly<Record<string, unknown>> | null, lang: ChangeLang, names?: ChangeNames): ChangeLine[] {
  const all = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const keys = [...all].filter((k) => isShownField(k) && !(NAMED_BY[k] !== undefined && all.has(NAMED_BY[k]!)));
  const order = Object.keys(CHANGE_FIELDS);
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i < 0 ? order.length : i;
  };
  return keys.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((key) => ({
    key,
    field: fieldName(key, lang),
    before: before === null ? null : fieldValue(key, before[key], lang, names),
    after: after === null ? null : fieldValue(key, after[key], lang, names),
  }));
}

/** One line as the log and the export write it: `字段: 旧 → 新` (a create or delete: `字段: 值`). */
export function changeLineText(line: ChangeLine): string {
  if (line.before === null) return `${line.field}: ${line.after ?? EMPTY_VALUE}`;
  if (line.after === null) return `${line.field}: ${line.before}`;
  return `${line.field}: ${line.before} → ${line.after}`;
}
