/**
 * The data dictionary (issue 19, /system/dictionary; spec §3 "dictionary tree node label is codeCnname"):
 * kinds, each with its codes (label in Chinese and English, order, enabled). Platform-wide: every company
 * reads the same codes, and only a platform administrator changes them. The seeded kinds are the code
 * lists the console uses today (domain/fleet and the spec's display types), so a page can read its labels
 * from the dictionary instead of a constant.
 */
import { INSTALLATION_KIND_CODES, INSTALLATION_KIND_NAMES } from '../fleet/installation.ts';
import { LICENCE_CLASSES, PLATE_COLORS, PLATE_COLOR_NAMES, VEHICLE_TYPES, VEHICLE_TYPE_NAMES } from '../fleet/limits.ts';
import { LINE_DIRECTIONS, LINE_DIRECTION_NAMES } from '../fleet/line.ts';

export const DICT_CODE_MAX = 32;
export const DICT_CODE_PATTERN = '^[A-Za-z0-9_.-]+$';
export const DICT_NAME_MAX = 50;
export const DICT_REMARK_MAX = 200;
export const DICT_SORT_MAX = 9999;
/** Codes a kind may hold (the tree and a select list stay readable). */
export const DICT_CODES_PER_KIND_MAX = 500;

export interface SeedCode {
  readonly code: string;
  readonly zh: string;
  readonly en: string;
}
export interface SeedKind extends SeedCode {
  readonly codes: readonly SeedCode[];
}

const pairs = <K extends string | number>(codes: readonly K[], names: Readonly<Record<K, readonly [string, string]>>): SeedCode[] =>
  codes.map((c) => ({ code: String(c), zh: names[c][0], en: names[c][1] }));

export const DictKinds = {
  plateColor: 'plateColor',
  vehicleType: 'vehicleType',
  licenceClass: 'licenceClass',
  installationKind: 'installationKind',
  lineDirection: 'lineDirection',
  textDisplayType: 'textDisplayType',
  riskLevel: 'riskLevel',
  accidentLevel: 'accidentLevel',
} as const;

/** The kinds seeded on first start (built-in: they can be relabelled, reordered and disabled, not deleted). */
export const SEED_DICTIONARY: readonly SeedKind[] = [
  { code: DictKinds.plateColor, zh: '车牌颜色', en: 'Plate colour', codes: pairs(PLATE_COLORS, PLATE_COLOR_NAMES) },
  { code: DictKinds.vehicleType, zh: '车辆类型', en: 'Vehicle type', codes: pairs(VEHICLE_TYPES, VEHICLE_TYPE_NAMES) },
  { code: DictKinds.licenceClass, zh: '准驾车型', en: 'Licence class', codes: LICENCE_CLASSES.map((c) => ({ code: c, zh: c, en: c })) },
  { code: DictKinds.installationKind, zh: '安装记录类型', en: 'Installation record kind', codes: pairs(INSTALLATION_KIND_CODES, INSTALLATION_KIND_NAMES) },
  { code: DictKinds.lineDirection, zh: '线路方向', en: 'Line direction', codes: pairs(LINE_DIRECTIONS, LINE_DIRECTION_NAMES) },
  {
    // Spec §3: text-message display types (JT/T 808 0x8300 flags).
    code: DictKinds.textDisplayType, zh: '文本信息显示类型', en: 'Text message display type',
    codes: [
      { code: 'tts', zh: '终端TTS播读', en: 'Terminal TTS broadcast' },
      { code: 'urgent', zh: '紧急', en: 'Urgent' },
      { code: 'display', zh: '终端显示器显示', en: 'Terminal display' },
      { code: 'adScreen', zh: '广告屏显示', en: 'Advertising screen' },
    ],
  },
  {
    code: DictKinds.riskLevel, zh: '风险等级', en: 'Risk level',
    codes: [
      { code: 'high', zh: '高风险', en: 'High' },
      { code: 'medium', zh: '中风险', en: 'Medium' },
      { code: 'low', zh: '低风险', en: 'Low' },
      { code: 'ordinary', zh: '一般', en: 'Ordinary' },
    ],
  },
  {
    code: DictKinds.accidentLevel, zh: '事故等级', en: 'Accident level',
    codes: [
      { code: 'extraSerious', zh: '特大事故', en: 'Extra serious' },
      { code: 'major', zh: '重大事故', en: 'Major' },
      { code: 'ordinary', zh: '一般事故', en: 'Ordinary' },
      { code: 'minor', zh: '轻微事故', en: 'Minor' },
    ],
  },
];

export const DICT_MESSAGES = {
  platformOnly: ['数据字典只有平台管理员可以修改', 'Only a platform administrator can change the dictionary'],
  notFound: ['字典项不存在', 'No such dictionary entry'],
  kindNotFound: ['字典类型不存在', 'No such dictionary kind'],
  codeTaken: ['该编码已存在', 'This code is taken'],
  builtinRemove: ['内置字典项不能删除，可停用', 'A built-in entry cannot be deleted; disable it instead'],
  builtinCode: ['内置字典项的编码不能修改', 'The code of a built-in entry cannot be changed'],
  kindHasCodes: ['该类型下还有字典项', 'The kind still holds codes'],
  tooMany: [`每个类型最多 ${DICT_CODES_PER_KIND_MAX} 项`, `A kind holds at most ${DICT_CODES_PER_KIND_MAX} codes`],
} as const satisfies Record<string, readonly [string, string]>;
