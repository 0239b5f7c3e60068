import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the alarm statistics and comparison pages. */
export const ALARM_STATS_NS = 'alarmStats';

registerMessages(ALARM_STATS_NS, {
  zh: {
    dim: { type: '按类型', date: '按日期', vehicle: '按车辆', driver: '按驾驶员', company: '按公司' },
    col: {
      type: '报警类型', group: '报警分类', date: '日期', plate: '车牌号', company: '公司', driver: '驾驶员', cert: '从业资格证号',
      latestVehicle: '最近车辆', count: '报警数', occurrences: '发生次数', unprocessed: '未处理', vehicles: '涉及车辆', total: '合计',
      action: '操作', a: '时段A', b: '时段B', delta: '变化', percent: '变化率',
    },
    filter: {
      all: '全部',
      start: '开始时间', end: '结束时间', group: '报警分类', type: '报警类型', risk: '风险等级', status: '处理状态', vehicles: '车辆',
      vehiclesPlaceholder: '输入车牌号搜索', search: '统计', reset: '重置',
    },
    own: '（本级车辆）',
    drill: '下级',
    up: '返回上级',
    details: '报警明细',
    exportTable: '导出统计',
    exportDetails: '导出明细',
    exportFailed: '导出失败',
    exportButton: '导出',
    empty: '该时段没有符合条件的报警',
    chartEmpty: '无数据',
    summary: '共 {{count}} 条报警，发生 {{occurrences}} 次，未处理 {{unprocessed}} 条，涉及 {{vehicles}} 辆车',
    cellTitle: '{{label}} 的报警',
    capped: '查询结果过多，仅显示前5000条（共匹配 {{matched}} 条）',
    tooOld: '只能查询最近3个月的报警',
    badRange: '开始时间不能晚于结束时间',
    contrast: {
      mode: '对比方式', periods: '两个时段', companies: '两个公司', periodA: '时段A', periodB: '时段B', companyA: '公司A', companyB: '公司B',
      pickCompany: '请选择要对比的两个公司', run: '对比', up: '上升', down: '下降', same: '持平', newRow: '新增',
    },
  },
  en: {
    dim: { type: 'By type', date: 'By day', vehicle: 'By vehicle', driver: 'By driver', company: 'By company' },
    col: {
      type: 'Alarm type', group: 'Alarm group', date: 'Date', plate: 'Plate', company: 'Company', driver: 'Driver', cert: 'Certificate',
      latestVehicle: 'Latest vehicle', count: 'Alarms', occurrences: 'Occurrences', unprocessed: 'Not processed', vehicles: 'Vehicles', total: 'Total',
      action: 'Actions', a: 'Period A', b: 'Period B', delta: 'Change', percent: 'Change %',
    },
    filter: {
      all: 'All',
      start: 'Start', end: 'End', group: 'Alarm group', type: 'Alarm type', risk: 'Risk level', status: 'Processing state', vehicles: 'Vehicles',
      vehiclesPlaceholder: 'Search by plate', search: 'Run', reset: 'Reset',
    },
    own: ' (own vehicles)',
    drill: 'Sub-companies',
    up: 'Up one level',
    details: 'Alarm details',
    exportTable: 'Export table',
    exportDetails: 'Export details',
    exportFailed: 'The export failed',
    exportButton: 'Export',
    empty: 'No alarms match in this period',
    chartEmpty: 'No data',
    summary: 'Alarms: {{count}} · occurrences: {{occurrences}} · not processed: {{unprocessed}} · vehicles: {{vehicles}}',
    cellTitle: 'Alarms of {{label}}',
    capped: 'Too many results: only the first 5000 are shown ({{matched}} matched)',
    tooOld: 'Only alarms of the last 3 months can be queried',
    badRange: 'The start must not be after the end',
    contrast: {
      mode: 'Compare', periods: 'Two periods', companies: 'Two companies', periodA: 'Period A', periodB: 'Period B', companyA: 'Company A', companyB: 'Company B',
      pickCompany: 'Choose the two companies to compare', run: 'Compare', up: 'Up', down: 'Down', same: 'Same', newRow: 'New',
    },
  },
});
