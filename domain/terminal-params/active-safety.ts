/**
 * The active-safety terminal parameters of the Jiangsu standard (T/JSATL12-2017, 苏标 §4.2.1, tables
 * 4-10 and 4-11): 0xF364 ADAS parameters and 0xF365 DSM (driver state monitoring) parameters. Each is
 * ONE JT/T 808 parameter item whose value is a fixed block of BYTE / WORD / DWORD fields in the order
 * below (big-endian, as all of JT/T 808). Shared by the codec (server/gateway/jt808/parameters.ts), the
 * simulator (server/sim/parameters.ts), the service's checks and the console's forms, so the wire
 * layout, the labels and the ranges can never disagree.
 *
 * A block value is a plain object of the named fields (reserved bytes are not part of it: written as
 * zero, skipped on reading).
 */

import { HJWS_PARAMS } from './hjws.ts';

export type BlockFieldType = 'byte' | 'word' | 'dword';

export interface BlockOption {
  readonly value: number;
  readonly zh: string;
  readonly en: string;
}

export interface BlockField {
  readonly key: string;
  readonly type: BlockFieldType;
  readonly zh: string;
  readonly en: string;
  /** Unit as shown next to the value ('100 ms' means tenths of a second on the wire). */
  readonly unit?: string;
  readonly min: number;
  readonly max: number;
  /** The standard's default value. */
  readonly def: number;
  /** A bit mask (shown and edited in hex). */
  readonly mask?: true;
  readonly options?: readonly BlockOption[];
  /** The form section it belongs to (console grouping). */
  readonly group: string;
}

/** Reserved bytes at this place of the block. */
export interface BlockReserved {
  readonly reserved: number;
}

export type BlockEntry = BlockField | BlockReserved;

export interface BlockLayout {
  readonly id: number;
  readonly key: 'adas' | 'dsm' | 'hjws';
  readonly zh: string;
  readonly en: string;
  readonly entries: readonly BlockEntry[];
}

/** A decoded block: field key → value. */
export type ActiveSafetyBlock = { readonly [key: string]: number };

export const WIDTH: Record<BlockFieldType, number> = { byte: 1, word: 2, dword: 4 };
const MAX: Record<BlockFieldType, number> = { byte: 0xff, word: 0xffff, dword: 0xffffffff };

const f = (group: string, key: string, type: BlockFieldType, zh: string, en: string, min: number, max: number, def: number, unit?: string, extra: Partial<BlockField> = {}): BlockField =>
  ({ group, key, type, zh, en, min, max, def, ...(unit === undefined ? {} : { unit }), ...extra });

const PHOTO_STRATEGY_ADAS: readonly BlockOption[] = [
  { value: 0, zh: '不开启', en: 'Off' }, { value: 1, zh: '定时拍照', en: 'By time' }, { value: 2, zh: '定距拍照', en: 'By distance' }, { value: 3, zh: '保留', en: 'Reserved' },
];
const PHOTO_STRATEGY_DSM: readonly BlockOption[] = [
  { value: 0, zh: '不开启', en: 'Off' }, { value: 1, zh: '定时拍照', en: 'By time' }, { value: 2, zh: '定距拍照', en: 'By distance' }, { value: 3, zh: '插卡触发', en: 'On card insertion' },
];
const PHOTO_RESOLUTION: readonly BlockOption[] = [
  { value: 1, zh: '352×288', en: '352×288' }, { value: 2, zh: '704×288', en: '704×288' }, { value: 3, zh: '704×576', en: '704×576' },
  { value: 4, zh: '640×480', en: '640×480' }, { value: 5, zh: '1280×720', en: '1280×720' }, { value: 6, zh: '1920×1080', en: '1920×1080' },
];
const VIDEO_RESOLUTION: readonly BlockOption[] = [
  { value: 1, zh: 'CIF', en: 'CIF' }, { value: 2, zh: 'HD1', en: 'HD1' }, { value: 3, zh: 'D1', en: 'D1' }, { value: 4, zh: 'WD1', en: 'WD1' },
  { value: 5, zh: 'VGA', en: 'VGA' }, { value: 6, zh: '720P', en: '720P' }, { value: 7, zh: '1080P', en: '1080P' },
];
const DRIVER_ID_TRIGGER: readonly BlockOption[] = [
  { value: 0, zh: '不开启', en: 'Off' }, { value: 1, zh: '定时触发', en: 'By time' }, { value: 2, zh: '定距触发', en: 'By distance' }, { value: 3, zh: '插卡开始行驶触发', en: 'Card inserted, driving starts' },
];

/** The common head of both blocks (speed threshold, volume, active photos, resolutions, enables). */
function head(kind: 'adas' | 'dsm'): BlockEntry[] {
  const adas = kind === 'adas';
  return [
    f('general', 'alarmSpeedThreshold', 'byte', '报警判断速度阈值', 'Alarm speed threshold', 0, 60, 30, 'km/h'),
    f('general', 'alarmVolume', 'byte', '报警提示音量', 'Alarm volume', 0, 8, 6),
    f('photo', 'photoStrategy', 'byte', '主动拍照策略', 'Active photo strategy', 0, 3, 0, undefined, { options: adas ? PHOTO_STRATEGY_ADAS : PHOTO_STRATEGY_DSM }),
    f('photo', 'photoInterval', 'word', '主动定时拍照时间间隔', 'Active photo interval', adas ? 0 : 60, adas ? 3600 : 60_000, adas ? 60 : 3600, 's'),
    f('photo', 'photoDistance', 'word', '主动定距拍照距离间隔', 'Active photo distance', 0, 60_000, 200, 'm'),
    f('photo', 'photoCount', 'byte', '单次主动拍照张数', 'Photos per active shot', 1, 10, 3),
    f('photo', 'photoGap', 'byte', '单次主动拍照时间间隔', 'Gap between active photos', 1, adas ? 10 : 5, 2, '100 ms'),
    f('photo', 'photoResolution', 'byte', '拍照分辨率', 'Photo resolution', 1, 6, 1, undefined, { options: PHOTO_RESOLUTION }),
    f('photo', 'videoResolution', 'byte', '视频录制分辨率', 'Video resolution', 1, 7, 1, undefined, { options: VIDEO_RESOLUTION }),
    f('general', 'alarmEnable', 'dword', '报警使能', 'Alarms enabled', 0, 0xffffffff, adas ? 0x00010fff : 0x000003ff, undefined, { mask: true }),
    f('general', 'eventEnable', 'dword', '事件使能', 'Events enabled', 0, 0xffffffff, 0x00000003, undefined, { mask: true }),
  ];
}

/** Per-alarm fields: level speed threshold, video before/after, photo count, photo gap. */
function perAlarm(group: string, zh: string, en: string, gapMax: number): BlockField[] {
  return [
    f(group, `${group}LevelSpeed`, 'byte', `${zh}分级速度阈值`, `${en}: level-2 speed`, 0, 220, 50, 'km/h'),
    f(group, `${group}Video`, 'byte', `${zh}前后视频录制时间`, `${en}: video before/after`, 0, 60, 5, 's'),
    f(group, `${group}Photos`, 'byte', `${zh}拍照张数`, `${en}: photos`, 0, 10, 3),
    f(group, `${group}PhotoGap`, 'byte', `${zh}拍照间隔`, `${en}: photo gap`, 1, gapMax, 2, '100 ms'),
  ];
}

/** 0xF364 ADAS parameters (table 4-10), 56 bytes. */
export const ADAS_PARAMS: BlockLayout = {
  id: 0xf364, key: 'adas', zh: 'ADAS 参数', en: 'ADAS parameters',
  entries: [
    ...head('adas'),
    { reserved: 1 },
    f('obstacle', 'obstacleDistance', 'byte', '障碍物报警距离阈值', 'Obstacle alarm distance (time)', 10, 50, 30, '100 ms'),
    ...perAlarm('obstacle', '障碍物报警', 'Obstacle alarm', 10),
    f('laneChange', 'laneChangeWindow', 'byte', '频繁变道报警判断时间段', 'Frequent lane change: window', 30, 120, 60, 's'),
    f('laneChange', 'laneChangeCount', 'byte', '频繁变道报警判断次数', 'Frequent lane change: count', 3, 10, 5),
    ...perAlarm('laneChange', '频繁变道报警', 'Frequent lane change', 10),
    ...perAlarm('laneDeparture', '车道偏离报警', 'Lane departure', 10),
    f('forwardCollision', 'forwardCollisionTime', 'byte', '前向碰撞报警时间阈值', 'Forward collision: time threshold', 10, 50, 27, '100 ms'),
    ...perAlarm('forwardCollision', '前向碰撞报警', 'Forward collision', 10),
    f('pedestrian', 'pedestrianTime', 'byte', '行人碰撞报警时间阈值', 'Pedestrian collision: time threshold', 10, 50, 30, '100 ms'),
    ...perAlarm('pedestrian', '行人碰撞报警', 'Pedestrian collision', 10),
    f('headway', 'headwayTime', 'byte', '车距监控报警距离阈值', 'Headway: time threshold', 10, 50, 10, '100 ms'),
    ...perAlarm('headway', '车距过近报警', 'Headway too close', 10),
    f('roadSign', 'roadSignPhotos', 'byte', '道路标志识别拍照张数', 'Road sign recognition: photos', 0, 10, 3),
    f('roadSign', 'roadSignPhotoGap', 'byte', '道路标志识别拍照间隔', 'Road sign recognition: photo gap', 1, 10, 2, '100 ms'),
    { reserved: 4 },
  ],
};

/** 0xF365 DSM parameters (table 4-11), 49 bytes. */
export const DSM_PARAMS: BlockLayout = {
  id: 0xf365, key: 'dsm', zh: 'DSM 参数', en: 'DSM parameters',
  entries: [
    ...head('dsm'),
    f('general', 'smokingCheckInterval', 'word', '吸烟报警判断时间间隔', 'Smoking: check interval', 0, 3600, 180, 's'),
    f('general', 'phoneCheckInterval', 'word', '接打电话报警判断时间间隔', 'Phone call: check interval', 0, 3600, 120, 's'),
    { reserved: 3 },
    ...perAlarm('fatigue', '疲劳驾驶报警', 'Fatigue', 5),
    ...perAlarm('phone', '接打电话报警', 'Phone call', 5),
    ...perAlarm('smoking', '抽烟报警', 'Smoking', 5),
    ...perAlarm('distraction', '分神驾驶报警', 'Distraction', 5),
    ...perAlarm('abnormal', '驾驶行为异常报警', 'Abnormal driving', 5),
    f('general', 'driverIdTrigger', 'byte', '驾驶员身份识别触发', 'Driver identification trigger', 0, 3, 1, undefined, { options: DRIVER_ID_TRIGGER }),
    { reserved: 2 },
  ],
};

/**
 * Every block-valued parameter the platform knows: the 苏标 pair and the slag-truck controller's private
 * block (0xF3A0, hjws.ts), which travels, is checked and is edited exactly like them.
 */
export const ACTIVE_SAFETY_LAYOUTS: readonly BlockLayout[] = [ADAS_PARAMS, DSM_PARAMS, HJWS_PARAMS];

export const isReserved = (e: BlockEntry): e is BlockReserved => 'reserved' in e;

/** The named fields of a layout, in wire order. */
export function blockFields(layout: BlockLayout): BlockField[] {
  return layout.entries.filter((e): e is BlockField => !isReserved(e));
}

/** Bytes on the wire. */
export function blockLength(layout: BlockLayout): number {
  return layout.entries.reduce((n, e) => n + (isReserved(e) ? e.reserved : WIDTH[e.type]), 0);
}

/** The layout of an active-safety parameter id, undefined for any other id. */
export function activeSafetyLayout(id: number): BlockLayout | undefined {
  return ACTIVE_SAFETY_LAYOUTS.find((l) => l.id === id);
}

/** The standard's defaults (what a terminal ships with). */
export function blockDefaults(layout: BlockLayout): ActiveSafetyBlock {
  return Object.fromEntries(blockFields(layout).map((x) => [x.key, x.def]));
}

/**
 * Checks a block value against its layout: every field present, a whole number inside its range, and
 * no unknown key. Returns the first problem (the field's key and the range it needs), null when good.
 */
export function checkBlock(layout: BlockLayout, value: unknown): { key: string; min: number; max: number } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { key: '', min: 0, max: 0 };
  const fields = blockFields(layout);
  const known = new Set(fields.map((x) => x.key));
  for (const key of Object.keys(value)) if (!known.has(key)) return { key, min: 0, max: 0 };
  for (const x of fields) {
    const v = (value as Record<string, unknown>)[x.key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < x.min || v > Math.min(x.max, MAX[x.type])) return { key: x.key, min: x.min, max: x.max };
  }
  return null;
}
