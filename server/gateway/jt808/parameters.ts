/**
 * Terminal parameters (JT/T 808-2013 §8.8 table 10 + table 12, -2019 §8.10 table 13 + table 14) and
 * 0x8103 set terminal parameters (设置终端参数). Body, the same in both editions: parameter count
 * BYTE, then per item the parameter id DWORD, the value's length BYTE and the value (DWORD, WORD, BYTE,
 * or STRING in GBK, no terminator).
 *
 * `PARAM` is the typed table of the ids the platform knows: their wire type decides how a value is
 * written and read back. An id the table does not know travels as raw bytes (`Uint8Array`), and so
 * does a known id whose length does not fit its type (a quirky terminal's answer is kept, not
 * refused). Terminal control (0x8104 / 0x8106 queries and their 0x0104 answer) reuses the item list
 * through `readParameterItems` / `writeParameterItems`; extend `PARAM` there, never rename a key.
 */
import { decodeBcdPhone, encodeGbk, type Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import type { ProtocolEdition } from './header.ts';
import { decodeLocation, writeLocation, type LocationInput, type LocationReport } from './location.ts';
import { activeSafetyLayout, blockLength, checkBlock, isReserved, type ActiveSafetyBlock, type BlockLayout } from '../../../domain/terminal-params/active-safety.ts';

export const SET_PARAMETERS = 0x8103;

/**
 * The terminal-parameter and terminal-control family (JT/T 808-2019 §8.9–§8.14, §8.18–§8.19;
 * 2013 §8.8–§8.12, §8.14–§8.15). Bodies are the same in both editions except 0x0107's widths.
 */
export const PARAM_MSG = {
  SET: 0x8103,
  /** 0x8104 query all parameters (empty body) → 0x0104. */
  QUERY_ALL: 0x8104,
  /** 0x8106 query chosen parameters: count BYTE, ids DWORD[count] → 0x0104. */
  QUERY_CHOSEN: 0x8106,
  /** 0x0104 answer: reply serial WORD, count BYTE, items. */
  ANSWER: 0x0104,
  /** 0x8107 query terminal attributes (empty body) → 0x0107. */
  QUERY_ATTRIBUTES: 0x8107,
  ATTRIBUTES: 0x0107,
  /** 0x8105 terminal control: command BYTE, parameters STRING (';'-separated, commands 1 and 2 only). */
  CONTROL: 0x8105,
  /** 0x8201 position query (empty body) → 0x0201 reply serial WORD + a 0x0200 body. */
  POSITION_QUERY: 0x8201,
  POSITION_ANSWER: 0x0201,
  /** 0x8202 temporary position tracking: interval WORD (s, 0 stops), validity DWORD (s). */
  TEMPORARY_TRACKING: 0x8202,
} as const;

/** 0x8105 command words (table 22 of 2013 / table 25 of 2019). */
export const CONTROL_COMMAND = {
  UPGRADE: 1,
  CONNECT_SERVER: 2,
  SHUTDOWN: 3,
  RESET: 4,
  FACTORY_RESET: 5,
  CLOSE_DATA: 6,
  CLOSE_WIRELESS: 7,
} as const;

/** Wire types of table 12 / 14. */
export type ParameterType = 'dword' | 'word' | 'byte' | 'string';

export interface ParameterSpec {
  readonly id: number;
  readonly type: ParameterType;
  /** The standard's name, for logs and documentation. */
  readonly zh: string;
  readonly unit?: string;
  /** First edition that defines it (2013 when absent). */
  readonly since?: 2019;
}

/** Value of a typed parameter: a number for DWORD / WORD / BYTE, text for STRING. */
export type ParameterValueOf<T extends ParameterType> = T extends 'string' ? string : number;

/**
 * One parameter item: a typed value for a known id, a field object for the active-safety blocks
 * (0xF364 ADAS / 0xF365 DSM, domain/terminal-params/active-safety.ts), raw bytes otherwise.
 */
export interface TerminalParameter {
  readonly id: number;
  readonly value: number | string | Uint8Array | ActiveSafetyBlock;
}

/** 0x8103 set terminal parameters. At most 255 items (the count is a BYTE). */
export interface SetTerminalParameters {
  msgId: 0x8103;
  params: TerminalParameter[];
}

const p = <const T extends ParameterType>(id: number, type: T, zh: string, unit?: string, since?: 2019) =>
  ({ id, type, zh, ...(unit === undefined ? {} : { unit }), ...(since === undefined ? {} : { since }) }) as { readonly id: number; readonly type: T; readonly zh: string; readonly unit?: string; readonly since?: 2019 };

/** The parameters the platform knows (table 12 of 2013, table 14 of 2019), by name. */
export const PARAM = {
  heartbeatInterval: p(0x0001, 'dword', '终端心跳发送间隔', 's'),
  tcpReplyTimeout: p(0x0002, 'dword', 'TCP 消息应答超时时间', 's'),
  tcpRetransmissions: p(0x0003, 'dword', 'TCP 消息重传次数'),
  udpReplyTimeout: p(0x0004, 'dword', 'UDP 消息应答超时时间', 's'),
  udpRetransmissions: p(0x0005, 'dword', 'UDP 消息重传次数'),
  smsReplyTimeout: p(0x0006, 'dword', 'SMS 消息应答超时时间', 's'),
  smsRetransmissions: p(0x0007, 'dword', 'SMS 消息重传次数'),
  mainServerApn: p(0x0010, 'string', '主服务器 APN'),
  mainServerUser: p(0x0011, 'string', '主服务器无线通信拨号用户名'),
  mainServerPassword: p(0x0012, 'string', '主服务器无线通信拨号密码'),
  mainServerAddress: p(0x0013, 'string', '主服务器地址，IP 或域名'),
  backupServerApn: p(0x0014, 'string', '备份服务器 APN'),
  backupServerUser: p(0x0015, 'string', '备份服务器无线通信拨号用户名'),
  backupServerPassword: p(0x0016, 'string', '备份服务器无线通信拨号密码'),
  backupServerAddress: p(0x0017, 'string', '备份服务器地址，IP 或域名'),
  /** 2013 only (reserved in 2019, where 0x0013 carries host:port). */
  serverTcpPort: p(0x0018, 'dword', '服务器 TCP 端口'),
  /** 2013 only (reserved in 2019). */
  serverUdpPort: p(0x0019, 'dword', '服务器 UDP 端口'),
  icAuthMainServer: p(0x001a, 'string', '道路运输证 IC 卡认证主服务器 IP 地址或域名'),
  icAuthTcpPort: p(0x001b, 'dword', '道路运输证 IC 卡认证主服务器 TCP 端口'),
  icAuthUdpPort: p(0x001c, 'dword', '道路运输证 IC 卡认证主服务器 UDP 端口'),
  icAuthBackupServer: p(0x001d, 'string', '道路运输证 IC 卡认证备份服务器 IP 地址或域名'),
  reportStrategy: p(0x0020, 'dword', '位置汇报策略'),
  reportScheme: p(0x0021, 'dword', '位置汇报方案'),
  noDriverReportInterval: p(0x0022, 'dword', '驾驶员未登录汇报时间间隔', 's'),
  slaveServerApn: p(0x0023, 'string', '从服务器 APN', undefined, 2019),
  slaveServerUser: p(0x0024, 'string', '从服务器无线通信拨号用户名', undefined, 2019),
  slaveServerPassword: p(0x0025, 'string', '从服务器无线通信拨号密码', undefined, 2019),
  slaveServerBackupAddress: p(0x0026, 'string', '从服务器备份地址，IP 或域名', undefined, 2019),
  sleepReportInterval: p(0x0027, 'dword', '休眠时汇报时间间隔', 's'),
  emergencyReportInterval: p(0x0028, 'dword', '紧急报警时汇报时间间隔', 's'),
  defaultReportInterval: p(0x0029, 'dword', '缺省时间汇报间隔', 's'),
  defaultReportDistance: p(0x002c, 'dword', '缺省距离汇报间隔', 'm'),
  noDriverReportDistance: p(0x002d, 'dword', '驾驶员未登录汇报距离间隔', 'm'),
  sleepReportDistance: p(0x002e, 'dword', '休眠时汇报距离间隔', 'm'),
  emergencyReportDistance: p(0x002f, 'dword', '紧急报警时汇报距离间隔', 'm'),
  turnAngle: p(0x0030, 'dword', '拐点补传角度', '°'),
  fenceRadius: p(0x0031, 'word', '电子围栏半径（非法位移阈值）', 'm'),
  platformPhone: p(0x0040, 'string', '监控平台电话号码'),
  resetPhone: p(0x0041, 'string', '复位电话号码'),
  factoryResetPhone: p(0x0042, 'string', '恢复出厂设置电话号码'),
  platformSmsPhone: p(0x0043, 'string', '监控平台 SMS 电话号码'),
  alarmSmsPhone: p(0x0044, 'string', '接收终端 SMS 文本报警号码'),
  answerStrategy: p(0x0045, 'dword', '终端电话接听策略'),
  maxCallTime: p(0x0046, 'dword', '每次最长通话时间', 's'),
  maxMonthCallTime: p(0x0047, 'dword', '当月最长通话时间', 's'),
  listenPhone: p(0x0048, 'string', '监听电话号码'),
  privilegedSmsPhone: p(0x0049, 'string', '监管平台特权短信号码'),
  alarmMask: p(0x0050, 'dword', '报警屏蔽字'),
  alarmSmsSwitch: p(0x0051, 'dword', '报警发送文本 SMS 开关'),
  alarmShootSwitch: p(0x0052, 'dword', '报警拍摄开关'),
  alarmShootStore: p(0x0053, 'dword', '报警拍摄存储标志'),
  keyAlarmFlags: p(0x0054, 'dword', '关键标志'),
  maxSpeed: p(0x0055, 'dword', '最高速度', 'km/h'),
  overspeedDuration: p(0x0056, 'dword', '超速持续时间', 's'),
  continuousDrivingLimit: p(0x0057, 'dword', '连续驾驶时间门限', 's'),
  dailyDrivingLimit: p(0x0058, 'dword', '当天累计驾驶时间门限', 's'),
  minRest: p(0x0059, 'dword', '最小休息时间', 's'),
  maxParking: p(0x005a, 'dword', '最长停车时间', 's'),
  overspeedWarningDelta: p(0x005b, 'word', '超速报警预警差值', '1/10 km/h'),
  fatigueWarningDelta: p(0x005c, 'word', '疲劳驾驶预警差值', 's'),
  collisionAlarm: p(0x005d, 'word', '碰撞报警参数设置'),
  rolloverAlarm: p(0x005e, 'word', '侧翻报警参数设置', '°'),
  timedShoot: p(0x0064, 'dword', '定时拍照控制'),
  distanceShoot: p(0x0065, 'dword', '定距拍照控制'),
  imageQuality: p(0x0070, 'dword', '图像/视频质量（1-10，1 最好）'),
  brightness: p(0x0071, 'dword', '亮度（0-255）'),
  contrast: p(0x0072, 'dword', '对比度（0-127）'),
  saturation: p(0x0073, 'dword', '饱和度（0-127）'),
  chroma: p(0x0074, 'dword', '色度（0-255）'),
  odometer: p(0x0080, 'dword', '车辆里程表读数', '1/10 km'),
  province: p(0x0081, 'word', '车辆所在的省域 ID'),
  city: p(0x0082, 'word', '车辆所在的市域 ID'),
  /** The plate as the traffic authority issued it. */
  plate: p(0x0083, 'string', '公安交通管理部门颁发的机动车号牌'),
  /** JT/T 415 colour (domain/fleet/limits.ts PLATE_COLORS). */
  plateColor: p(0x0084, 'byte', '车牌颜色'),
  gnssMode: p(0x0090, 'byte', 'GNSS 定位模式'),
  gnssBaudRate: p(0x0091, 'byte', 'GNSS 波特率'),
  gnssOutputRate: p(0x0092, 'byte', 'GNSS 模块详细定位数据输出频率'),
  gnssSampleRate: p(0x0093, 'dword', 'GNSS 模块详细定位数据采集频率', 's'),
  gnssUploadMode: p(0x0094, 'byte', 'GNSS 模块详细定位数据上传方式'),
  gnssUploadSetting: p(0x0095, 'dword', 'GNSS 模块详细定位数据上传设置'),
  can1SampleInterval: p(0x0100, 'dword', 'CAN 总线通道 1 采集时间间隔', 'ms'),
  can1UploadInterval: p(0x0101, 'word', 'CAN 总线通道 1 上传时间间隔', 's'),
  can2SampleInterval: p(0x0102, 'dword', 'CAN 总线通道 2 采集时间间隔', 'ms'),
  can2UploadInterval: p(0x0103, 'word', 'CAN 总线通道 2 上传时间间隔', 's'),
} as const satisfies Record<string, ParameterSpec>;

const BY_ID: ReadonlyMap<number, ParameterSpec> = new Map(Object.values(PARAM).map((s) => [s.id, s]));

/** The spec of a known parameter id, undefined for one the table does not know. */
export function parameterSpec(id: number): ParameterSpec | undefined {
  return BY_ID.get(id);
}

const WIDTH = { dword: 4, word: 2, byte: 1 } as const;

/** A typed item: `parameter(PARAM.plate, '京A12345')`. */
export function parameter<S extends ParameterSpec>(spec: S, value: ParameterValueOf<S['type']>): TerminalParameter {
  return { id: spec.id, value };
}

const FAMILY: ReadonlySet<number> = new Set(Object.values(PARAM_MSG));

/** True for every message of the parameter / terminal-control family (see PARAM_MSG). */
export function isParameterMessage(msgId: number): boolean {
  return FAMILY.has(msgId);
}

export interface QueryAllParameters {
  msgId: 0x8104;
}
export interface QueryChosenParameters {
  msgId: 0x8106;
  ids: number[];
}
export interface ParameterAnswer {
  msgId: 0x0104;
  replySerial: number;
  params: TerminalParameter[];
}
export interface QueryAttributes {
  msgId: 0x8107;
}
/** 0x0107 terminal attributes. Widths: maker 5, model 20/30, terminal id 7/30 bytes (2013/2019). */
export interface TerminalAttributes {
  msgId: 0x0107;
  /** Bit 0 passenger, 1 dangerous goods, 2 freight, 3 taxi, 6 recorder, 7 split unit (2019: 8 trailer). */
  terminalType: number;
  makerId: string;
  model: string;
  terminalId: string;
  /** 20 decimal digits (BCD[10]). */
  iccid: string;
  hardwareVersion: string;
  firmwareVersion: string;
  /** Bit 0 GPS, 1 BeiDou, 2 GLONASS, 3 Galileo. */
  gnss: number;
  /** Bit 0 GPRS, 1 CDMA, 2 TD-SCDMA, 3 WCDMA, 4 CDMA2000, 5 TD-LTE, 7 other. */
  comm: number;
}
export interface TerminalControl {
  msgId: 0x8105;
  command: number;
  /** ';'-separated parameters (commands 1 and 2), '' otherwise. */
  args: string;
}
export interface PositionQuery {
  msgId: 0x8201;
}
export interface PositionAnswer {
  msgId: 0x0201;
  replySerial: number;
  location: LocationReport;
}
/** What an encoder takes for 0x0201 (optional location items may be left out). */
export interface PositionAnswerInput {
  msgId: 0x0201;
  replySerial: number;
  location: LocationInput;
}
export interface TemporaryTracking {
  msgId: 0x8202;
  /** Seconds between reports; 0 stops temporary tracking. */
  interval: number;
  /** Seconds the tracking lasts. */
  validity: number;
}

export type ParameterMessage =
  | SetTerminalParameters
  | QueryAllParameters
  | QueryChosenParameters
  | ParameterAnswer
  | QueryAttributes
  | TerminalAttributes
  | TerminalControl
  | PositionQuery
  | PositionAnswer
  | TemporaryTracking;

export type ParameterMessageInput = Exclude<ParameterMessage, PositionAnswer> | PositionAnswerInput;

const ATTRIBUTE_WIDTHS = { 2013: { model: 20, terminal: 7 }, 2019: { model: 30, terminal: 30 } } as const;

function lengthString(r: Reader, what: string): string {
  const n = r.u8(`${what} length`);
  return r.fixedString(n, what);
}

function writeLengthString(w: Writer, text: string, what: string): void {
  const bytes = encodeGbk(text);
  if (bytes.length > 0xff) throw new Jt808Error('encode', `${what}: ${bytes.length} bytes exceed 255`);
  w.u8(bytes.length, `${what} length`).bytes(bytes);
}

/**
 * Decodes one body of the family from `r` (to its end). The caller checks nothing is left over.
 * Throws Jt808Error on malformed bodies.
 */
export function readParameterFamily(msgId: number, r: Reader, version: ProtocolEdition): ParameterMessage {
  switch (msgId) {
    case PARAM_MSG.SET:
      return readParameterMessage(r);
    case PARAM_MSG.QUERY_ALL:
    case PARAM_MSG.QUERY_ATTRIBUTES:
    case PARAM_MSG.POSITION_QUERY:
      return { msgId } as QueryAllParameters | QueryAttributes | PositionQuery;
    case PARAM_MSG.QUERY_CHOSEN: {
      const count = r.u8('parameter id count');
      if (count === 0) throw new Jt808Error('field', '0x8106: no parameter id');
      const ids: number[] = [];
      for (let i = 0; i < count; i++) ids.push(r.u32('parameter id'));
      return { msgId, ids };
    }
    case PARAM_MSG.ANSWER: {
      const replySerial = r.u16('reply serial');
      const count = r.u8('parameter count');
      return { msgId, replySerial, params: readParameterItems(r, count) };
    }
    case PARAM_MSG.ATTRIBUTES: {
      const w = ATTRIBUTE_WIDTHS[version];
      const terminalType = r.u16('terminal type');
      const makerId = r.fixedString(5, 'maker id');
      const model = r.fixedString(w.model, 'terminal model');
      const terminalId = r.fixedString(w.terminal, 'terminal id');
      const at = r.o;
      r.bytes(10, 'ICCID');
      const digits = decodeBcdPhone(r.b, at, 10);
      if (digits === undefined) throw new Jt808Error('field', 'ICCID: not BCD');
      const iccid = digits.padStart(20, '0');
      const hardwareVersion = lengthString(r, 'hardware version');
      const firmwareVersion = lengthString(r, 'firmware version');
      const gnss = r.u8('GNSS attributes');
      const comm = r.u8('communication attributes');
      return { msgId, terminalType, makerId, model, terminalId, iccid, hardwareVersion, firmwareVersion, gnss, comm };
    }
    case PARAM_MSG.CONTROL: {
      const command = r.u8('control command');
      return { msgId, command, args: r.restString() };
    }
    case PARAM_MSG.POSITION_ANSWER: {
      const replySerial = r.u16('reply serial');
      const location = decodeLocation(r.b, r.o, r.end);
      r.o = r.end;
      return { msgId, replySerial, location };
    }
    case PARAM_MSG.TEMPORARY_TRACKING: {
      const interval = r.u16('tracking interval');
      const validity = r.u32('tracking validity');
      return { msgId, interval, validity };
    }
    default:
      throw new Jt808Error('field', `0x${msgId.toString(16).padStart(4, '0')} is not a parameter message`);
  }
}

/** Writes one body of the family. Throws Jt808Error('encode') on bad fields. */
export function writeParameterFamily(w: Writer, msg: ParameterMessageInput, version: ProtocolEdition): void {
  switch (msg.msgId) {
    case PARAM_MSG.SET:
      writeParameterMessage(w, msg);
      return;
    case PARAM_MSG.QUERY_ALL:
    case PARAM_MSG.QUERY_ATTRIBUTES:
    case PARAM_MSG.POSITION_QUERY:
      return;
    case PARAM_MSG.QUERY_CHOSEN:
      if (msg.ids.length === 0 || msg.ids.length > 0xff) throw new Jt808Error('encode', `${msg.ids.length} parameter ids: 0x8106 carries 1 to 255`);
      w.u8(msg.ids.length, 'parameter id count');
      for (const id of msg.ids) w.u32(id, 'parameter id');
      return;
    case PARAM_MSG.ANSWER:
      if (msg.params.length > 0xff) throw new Jt808Error('encode', `${msg.params.length} parameters: 0x0104 carries at most 255`);
      w.u16(msg.replySerial, 'reply serial').u8(msg.params.length, 'parameter count');
      writeParameterItems(w, msg.params);
      return;
    case PARAM_MSG.ATTRIBUTES: {
      const widths = ATTRIBUTE_WIDTHS[version];
      w.u16(msg.terminalType, 'terminal type');
      w.fixedString(msg.makerId, 5, 'maker id').fixedString(msg.model, widths.model, 'terminal model').fixedString(msg.terminalId, widths.terminal, 'terminal id');
      if (!/^\d{1,20}$/.test(msg.iccid)) throw new Jt808Error('encode', `ICCID: "${msg.iccid}" is not up to 20 decimal digits`);
      w.bcdPhone(msg.iccid, 10);
      writeLengthString(w, msg.hardwareVersion, 'hardware version');
      writeLengthString(w, msg.firmwareVersion, 'firmware version');
      w.u8(msg.gnss, 'GNSS attributes').u8(msg.comm, 'communication attributes');
      return;
    }
    case PARAM_MSG.CONTROL:
      w.u8(msg.command, 'control command').string(msg.args);
      return;
    case PARAM_MSG.POSITION_ANSWER:
      w.u16(msg.replySerial, 'reply serial');
      writeLocation(w, msg.location);
      return;
    case PARAM_MSG.TEMPORARY_TRACKING:
      w.u16(msg.interval, 'tracking interval').u32(msg.validity, 'tracking validity');
      return;
  }
}

/** Reads `count` parameter items. Throws Jt808Error('truncated') when an item runs past the body. */
export function readParameterItems(r: Reader, count: number): TerminalParameter[] {
  const params: TerminalParameter[] = [];
  for (let i = 0; i < count; i++) {
    const id = r.u32('parameter id');
    const length = r.u8('parameter length');
    const spec = BY_ID.get(id);
    const layout = activeSafetyLayout(id);
    if (layout && length === blockLength(layout)) {
      params.push({ id, value: readActiveSafetyBlock(r, layout) });
    } else if (spec?.type === 'string') {
      params.push({ id, value: r.fixedString(length, `parameter 0x${id.toString(16).padStart(4, '0')}`) });
    } else if (spec && WIDTH[spec.type] === length) {
      const what = `parameter 0x${id.toString(16).padStart(4, '0')}`;
      params.push({ id, value: length === 4 ? r.u32(what) : length === 2 ? r.u16(what) : r.u8(what) });
    } else {
      // Unknown id, or a length its type does not have: kept as sent (a copy: bodies may be reused).
      params.push({ id, value: r.bytes(length, 'parameter value').slice() });
    }
  }
  return params;
}

/**
 * Writes the items. A known id takes its typed value (number or text); raw bytes are written as they
 * are for any id. Throws Jt808Error('encode') for a value of the wrong kind or one that does not fit.
 */
export function writeParameterItems(w: Writer, params: readonly TerminalParameter[]): void {
  for (const { id, value } of params) {
    const what = `parameter 0x${Number(id).toString(16).padStart(4, '0')}`;
    w.u32(id, 'parameter id');
    if (value instanceof Uint8Array) {
      if (value.length > 0xff) throw new Jt808Error('encode', `${what}: ${value.length} bytes exceed 255`);
      w.u8(value.length, 'parameter length').bytes(value);
      continue;
    }
    const layout = activeSafetyLayout(id);
    if (layout) {
      if (typeof value !== 'object') throw new Jt808Error('encode', `${what}: the ${layout.key.toUpperCase()} block needs its fields, got ${typeof value}`);
      w.u8(blockLength(layout), 'parameter length');
      writeActiveSafetyBlock(w, layout, value);
      continue;
    }
    if (typeof value === 'object') throw new Jt808Error('encode', `${what}: not an active-safety block`);
    const spec = BY_ID.get(id);
    if (!spec) throw new Jt808Error('encode', `${what}: unknown parameter, give its value as bytes`);
    if (spec.type === 'string') {
      if (typeof value !== 'string') throw new Jt808Error('encode', `${what}: STRING parameter needs text, got ${typeof value}`);
      const bytes = encodeGbk(value);
      if (bytes.length > 0xff) throw new Jt808Error('encode', `${what}: "${value}" is ${bytes.length} bytes, at most 255`);
      w.u8(bytes.length, 'parameter length').bytes(bytes);
      continue;
    }
    if (typeof value !== 'number') throw new Jt808Error('encode', `${what}: ${spec.type.toUpperCase()} parameter needs a number, got ${typeof value}`);
    const width = WIDTH[spec.type];
    w.u8(width, 'parameter length');
    if (width === 4) w.u32(value, what);
    else if (width === 2) w.u16(value, what);
    else w.u8(value, what);
  }
}

/**
 * Reads an active-safety block (T/JSATL12-2017 tables 4-10 / 4-11) field by field; reserved bytes are
 * skipped. The item's length was checked against the layout by the caller.
 */
export function readActiveSafetyBlock(r: Reader, layout: BlockLayout): ActiveSafetyBlock {
  const out: Record<string, number> = {};
  for (const e of layout.entries) {
    if (isReserved(e)) r.bytes(e.reserved, `${layout.key} reserved`);
    else out[e.key] = e.type === 'dword' ? r.u32(`${layout.key}.${e.key}`) : e.type === 'word' ? r.u16(`${layout.key}.${e.key}`) : r.u8(`${layout.key}.${e.key}`);
  }
  return out;
}

/** Writes an active-safety block; every field must be present and inside its range (else Jt808Error('encode')). */
export function writeActiveSafetyBlock(w: Writer, layout: BlockLayout, value: ActiveSafetyBlock): void {
  const bad = checkBlock(layout, value);
  if (bad) throw new Jt808Error('encode', `${layout.key}.${bad.key}: ${bad.key in value ? `must be a whole number from ${bad.min} to ${bad.max}` : 'missing or unknown field'}`);
  for (const e of layout.entries) {
    if (isReserved(e)) w.bytes(new Uint8Array(e.reserved));
    else if (e.type === 'dword') w.u32(value[e.key]!, `${layout.key}.${e.key}`);
    else if (e.type === 'word') w.u16(value[e.key]!, `${layout.key}.${e.key}`);
    else w.u8(value[e.key]!, `${layout.key}.${e.key}`);
  }
}

export function readParameterMessage(r: Reader): SetTerminalParameters {
  const count = r.u8('parameter count');
  return { msgId: SET_PARAMETERS, params: readParameterItems(r, count) };
}

export function writeParameterMessage(w: Writer, msg: SetTerminalParameters): void {
  if (msg.params.length === 0 || msg.params.length > 0xff) throw new Jt808Error('encode', `${msg.params.length} parameters: 0x8103 carries 1 to 255`);
  w.u8(msg.params.length, 'parameter count');
  writeParameterItems(w, msg.params);
}
