import { registerMessages } from '../../../i18n/index.ts';

/**
 * The words of the report frame (this folder's EngineReport and online-control's ReportFrame): filters, period
 * problems, export, totals, playback and the vehicle/company/date columns. They were copied into every report
 * feature's messages; now each feature registers its own words through `registerReportMessages`, which lays them
 * over these in the feature's namespace (the frame reads every key from the feature's namespace, so a feature
 * can still word one differently).
 */
const FRAME = {
  zh: {
    filter: {
      startDate: '开始日期',
      endDate: '结束日期',
      vehiclesChecked: '已选 {{count}} 辆车',
      pickVehicles: '请在左侧勾选车辆（最多{{max}}辆）',
      tooMany: '最多选择{{max}}辆车，已选{{count}}辆',
      clearVehicles: '清除车辆',
    },
    period: {
      missing: '请选择开始日期和结束日期',
      startAfterEnd: '开始日期不能晚于结束日期',
      tooLong: '查询时间段不能超过{{days}}天',
    },
    col: { vehiidno: '车牌号', company: '所属公司', date: '日期' },
    export: '导出',
    exporting: '正在导出 {{exported}} / {{total}}',
    exportFailed: '导出失败',
    playback: '轨迹回放',
    total: '合计',
    loadedOf: '已加载 {{loaded}} / {{total}} 条',
    yes: '是',
    no: '否',
  },
  en: {
    filter: {
      startDate: 'Start date',
      endDate: 'End date',
      vehiclesChecked: '{{count}} vehicles selected',
      pickVehicles: 'Check vehicles in the tree on the left (at most {{max}})',
      tooMany: 'Select at most {{max}} vehicles ({{count}} selected)',
      clearVehicles: 'Clear vehicles',
    },
    period: {
      missing: 'Choose a start date and an end date',
      startAfterEnd: 'The start date cannot be after the end date',
      tooLong: 'The period can be at most {{days}} days',
    },
    col: { vehiidno: 'Plate', company: 'Company', date: 'Date' },
    export: 'Export',
    exporting: 'Exporting {{exported}} / {{total}}',
    exportFailed: 'Export failed',
    playback: 'Track playback',
    total: 'Total',
    loadedOf: 'Loaded {{loaded}} of {{total}}',
    yes: 'Yes',
    no: 'No',
  },
};

/**
 * How the whole-company reports (`wholeCompany`: no vehicle checked means every vehicle of the selected company;
 * fuel and passengers) word the frame: they speak of checked vehicles and count loaded rows without 条.
 */
const WHOLE_COMPANY = {
  zh: {
    filter: { vehiclesAll: '未勾选车辆：统计所选公司的全部车辆（最多{{max}}辆）' },
    loadedOf: '已加载 {{loaded}} / {{total}}',
  },
  en: {
    filter: {
      vehiclesChecked: '{{count}} vehicles checked',
      vehiclesAll: 'No vehicle checked: all vehicles of the selected company (at most {{max}})',
      tooMany: 'At most {{max}} vehicles can be selected; {{count}} are checked',
    },
    period: { missing: 'Choose a start and an end date' },
    loadedOf: 'Loaded {{loaded}} / {{total}}',
  },
};

export interface ReportWording {
  /** The feature's pages are whole-company reports: use that wording of the frame. */
  wholeCompany?: boolean;
}

/** Registers a report feature's namespace: the frame's words, then the feature's own over them (deep merge). */
export function registerReportMessages(
  namespace: string,
  own: { zh: Record<string, unknown>; en: Record<string, unknown> },
  wording: ReportWording = {},
): void {
  registerMessages(namespace, FRAME);
  if (wording.wholeCompany) registerMessages(namespace, WHOLE_COMPANY);
  registerMessages(namespace, own);
}
