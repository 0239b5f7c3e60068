/**
 * Field problems (issue 13): what is wrong with one input field, as a code and its parameters rather than
 * a sentence, so the console can say it again in another language. The server writes the text of a 400
 * (or a 409 that names a field) from these and sends them beside it as `errors: {field: {code, params,
 * msg}}`; the console renders a known code in the current UI language and falls back to `msg` (the text
 * the server wrote) for a code it does not know. Schema rules use Ajv's keyword names.
 */
import { FieldMessage, type Lang } from './catalogue.ts';
import { photoProblemText, type PhotoProblem } from '../fleet/installation.ts';
import { stationProblemText, type StationProblem } from '../fleet/line.ts';
import { VIN_MESSAGES, type VinProblem } from '../fleet/vin.ts';

export interface FieldProblem {
  /** A schema keyword (`maxLength`, `pattern`, `required` …) or a rule of the resource (`taken`, `noSuchRole`, `ipEntry`). */
  readonly code: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** The `errors` of an answer: each named field's problem and the text the server wrote for it. */
export type FieldErrors = Readonly<Record<string, FieldProblem & { readonly msg: string }>>;

const TYPE_NAMES: Record<string, readonly [string, string]> = {
  integer: ['整数', 'an integer'],
  number: ['数字', 'a number'],
  string: ['字符串', 'a string'],
  boolean: ['布尔值', 'a boolean'],
  array: ['数组', 'an array'],
  object: ['对象', 'an object'],
  null: ['空值', 'null'],
};

/** The string format of URL fields a user stores (http(s) or relative; see `UrlText` in server/http/route.ts). */
export const HTTP_URL_FORMAT = 'http-url';

function typeName(type: unknown, lang: Lang): string {
  const names = (Array.isArray(type) ? type : [type]).map((t) => TYPE_NAMES[String(t)]?.[lang === 'zh' ? 0 : 1] ?? String(t));
  return names.join(lang === 'zh' ? '或' : ' or ');
}

/** One branch of an `anyOf`, as `params.branches` carries it: `{const}`, `{enum}` or `{type}`. */
function branchText(branch: unknown, lang: Lang): string {
  const b = (branch ?? {}) as { const?: unknown; enum?: unknown[]; type?: unknown };
  if (b.const !== undefined) return JSON.stringify(b.const);
  if (b.enum) return b.enum.map((v) => JSON.stringify(v)).join(', ');
  return typeName(b.type, lang);
}

/**
 * What is wrong, without the field's name ("长度不能超过 32" / "must have at most 32 characters"), or
 * undefined for a code this catalogue does not know (the caller falls back to the server's text).
 */
export function fieldRuleText(p: FieldProblem, lang: Lang): string | undefined {
  const zh = lang === 'zh';
  const q = p.params ?? {};
  const n = String(q.limit);
  switch (p.code) {
    case 'required': return zh ? '不能为空' : 'is required';
    case 'unknown': return zh ? '不允许的字段' : 'is not allowed';
    case 'type': return zh ? `应为${typeName(q.type, lang)}` : `must be ${typeName(q.type, lang)}`;
    case 'minimum': return zh ? `不能小于 ${n}` : `must be at least ${n}`;
    case 'maximum': return zh ? `不能大于 ${n}` : `must be at most ${n}`;
    case 'exclusiveMinimum': return zh ? `必须大于 ${n}` : `must be greater than ${n}`;
    case 'exclusiveMaximum': return zh ? `必须小于 ${n}` : `must be less than ${n}`;
    case 'minLength': return zh ? `长度不能少于 ${n}` : `must have at least ${n} characters`;
    case 'maxLength': return zh ? `长度不能超过 ${n}` : `must have at most ${n} characters`;
    case 'minItems': return zh ? `至少需要 ${n} 项` : `must have at least ${n} items`;
    case 'maxItems': return zh ? `最多 ${n} 项` : `must have at most ${n} items`;
    case 'uniqueItems': return zh ? '不能有重复项' : 'must not contain duplicates';
    case 'pattern': return zh ? '格式不正确' : 'has the wrong format';
    case 'format':
      if (q.format === HTTP_URL_FORMAT) return zh ? '只能是 http(s) 地址或相对地址' : 'must be an http(s) or relative URL';
      return zh ? '格式不正确' : 'has the wrong format';
    case 'enum': {
      const values = (Array.isArray(q.allowedValues) ? q.allowedValues : []).join(', ');
      return zh ? `应为 ${values} 之一` : `must be one of ${values}`;
    }
    case 'const': return zh ? `应为 ${JSON.stringify(q.allowedValue)}` : `must be ${JSON.stringify(q.allowedValue)}`;
    case 'anyOf': {
      const branches = (Array.isArray(q.branches) ? q.branches : []).map((b) => branchText(b, lang)).join(zh ? '或' : ' or ');
      return zh ? `应为${branches}` : `must be ${branches}`;
    }
    case 'taken': return zh ? '已被使用' : 'is already taken';
    case 'noSuchRole': return zh ? `角色 ${String(q.id)} 不存在或不可分配` : `role ${String(q.id)} does not exist or cannot be assigned`;
    case 'ipEntry': return zh ? `「${String(q.entry)}」不是 IPv4 地址或 CIDR 网段` : `"${String(q.entry)}" is not an IPv4 address or CIDR range`;
    default: return machineAffairsText(p, lang);
  }
}

/** Rules of the machine-affairs screens (issue 15): vehicles, devices, drivers, installation records, lines, logs. */
function machineAffairsText(p: FieldProblem, lang: Lang): string | undefined {
  const zh = lang === 'zh';
  const q = p.params ?? {};
  const str = (v: unknown) => String(v ?? '');
  switch (p.code) {
    case 'length': case 'characters': case 'checkDigit': return VIN_MESSAGES[p.code as VinProblem][zh ? 0 : 1];
    case 'date': return zh ? '不是有效的日期' : 'is not a valid date';
    case 'future': return zh ? '不能晚于当前时间' : 'cannot be later than now';
    case 'duplicate': return zh ? `通道 ${str(q.channel)} 重复` : `channel ${str(q.channel)} appears twice`;
    case 'noSuchLine': return zh ? '线路不存在或不属于该车辆的公司' : "the line does not exist or is not of the vehicle's company";
    case 'noSuchDriver': return zh ? `司机 ${str(q.id)} 不存在或不可选` : `driver ${str(q.id)} does not exist or cannot be chosen`;
    case 'noSuchDevice': return zh ? `设备 ${str(q.deviceNo)} 不存在` : `there is no device ${str(q.deviceNo)}`;
    case 'deviceCompany': return zh ? `设备 ${str(q.deviceNo)} 不属于该车辆的公司或其上级公司` : `device ${str(q.deviceNo)} belongs neither to the vehicle's company nor above it`;
    case 'deviceBound': return zh ? `设备 ${str(q.deviceNo)} 已安装在 ${str(q.plate)} 上` : `device ${str(q.deviceNo)} is installed on ${str(q.plate)}`;
    case 'unchanged': return zh ? '与当前绑定相同，没有变化' : 'is the same as the current binding';
    case 'noSuchDeviceType': return zh ? '设备类型不存在或不可选' : 'the device type does not exist or cannot be chosen';
    case 'vehicleOutside': return zh ? '车辆不存在或不在该司机的公司范围内' : "a vehicle does not exist or is outside the driver's company";
    case 'lineNotInVehicleCompany': return zh ? '线路不属于这些车辆的公司或其下级公司' : "the line is not of these vehicles' company or one below it";
    case 'periodSpan': return zh ? `时间范围不能超过 ${str(q.maxDays)} 天` : `the period spans at most ${str(q.maxDays)} days`;
    case 'periodOrder': return zh ? '开始时间不能晚于结束时间' : 'the start is after the end';
    case 'noSuchPhoto': return zh ? '照片不存在' : 'there is no such photo';
    case 'photoType': case 'photoTypeMismatch': case 'photoSize': case 'photoEmpty': case 'photoCount':
      return photoProblemText({ code: p.code, ...q } as unknown as PhotoProblem, lang);
    case 'tooMany': case 'nameRequired': case 'nameTooLong': case 'duplicateName': case 'badPosition':
      return stationProblemText({ code: p.code, ...q } as unknown as StationProblem, lang);
    default: return undefined;
  }
}

/**
 * The whole sentence naming the field ("字段 name 不合法：长度不能超过 32"), as a 400's `msg` reads; undefined
 * for an unknown code. `required` and `unknown` keep their own catalogue sentences.
 */
export function fieldProblemMessage(field: string, p: FieldProblem, lang: Lang): string | undefined {
  if (p.code === 'required') return FieldMessage.required(field, lang);
  if (p.code === 'unknown') return FieldMessage.unknown(field, lang);
  const detail = fieldRuleText(p, lang);
  return detail === undefined ? undefined : FieldMessage.invalid(field, detail, lang);
}

/** `roleIds[0]` → `roleIds`, `address.city` → `address`: the form field a nested problem belongs to. */
export function topField(field: string): string {
  return field.split(/[.[]/, 1)[0] ?? field;
}

/** The `errors` of an answer read defensively: entries with a string `code`, or plain strings (older answers: the text only). */
export function readFieldErrors(raw: unknown): Record<string, { problem?: FieldProblem; msg: string }> {
  if (typeof raw !== 'object' || raw === null) return {};
  const out: Record<string, { problem?: FieldProblem; msg: string }> = {};
  for (const [field, v] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof v === 'string') out[field] = { msg: v };
    else if (typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'string') {
      const e = v as { code: string; params?: unknown; msg?: unknown };
      const params = typeof e.params === 'object' && e.params !== null ? (e.params as Record<string, unknown>) : undefined;
      out[field] = { problem: { code: e.code, ...(params ? { params } : {}) }, msg: typeof e.msg === 'string' ? e.msg : '' };
    }
  }
  return out;
}
