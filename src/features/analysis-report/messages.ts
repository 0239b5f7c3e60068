import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the analysis report pages (teamReport, vehicleReport). */
export const ANALYSIS_NS = 'analysisReport';

registerMessages(ANALYSIS_NS, {
  zh: {
    title: { team: '车队报告', vehicle: '单车报告' },
    month: '考核月份',
    export: '导出每日明细',
    loading: '加载中…',
    failed: '加载失败：{{msg}}',
    retry: '重试',
    pickVehicle: '请在左侧选择车辆',
    vehicle: '车辆：{{plate}}',
    stat: {
      vehicles: '车辆数', activeVehicles: '有里程车辆', mileageKm: '总里程(km)', alarms: '报警数', per100Km: '报警/百公里', averageScore: '平均考核分',
      normalDays: '正常运行天数', onlineDays: '上线天数', operationDays: '营运天数', totalScore: '考核总分', rank: '排名',
    },
    rankOf: '{{rank}} / {{of}}',
    chart: { alarms: '报警数', km: '里程(km)' },
    section: { daily: '每日趋势', groups: '报警分类统计', categories: '考核维度', topTypes: '报警类型 Top 10', risky: '高风险车辆 Top 10', types: '报警类型明细', days: '每日明细' },
    col: {
      group: '报警分类', category: '考核维度', count: '报警数', per100Km: '次/百公里', score: '得分', alarmType: '报警类型', rank: '排名',
      vehiidno: '车牌号', company: '所属公司', totalScore: '总分', mileageKm: '里程(km)', date: '日期', online: '上线', operation: '营运', normal: '正常运行',
    },
    yes: '是',
    no: '否',
    notAssessed: '未考核',
    unavailable: '单车报告不可用',
    normalRule: '正常运行日：当天有定位数据上传且行驶里程不少于1公里；单车报告至少需要{{min}}个正常运行日。',
    teamNote: '车队：当前选择的公司及其下级公司的全部车辆；报警不含已判为无效的报警。',
  },
  en: {
    title: { team: 'Fleet report', vehicle: 'Single-vehicle report' },
    month: 'Assessment month',
    export: 'Export days',
    loading: 'Loading…',
    failed: 'Loading failed: {{msg}}',
    retry: 'Retry',
    pickVehicle: 'Choose a vehicle in the tree on the left',
    vehicle: 'Vehicle: {{plate}}',
    stat: {
      vehicles: 'Vehicles', activeVehicles: 'Vehicles with mileage', mileageKm: 'Mileage (km)', alarms: 'Alarms', per100Km: 'Alarms per 100 km', averageScore: 'Average score',
      normalDays: 'Normal running days', onlineDays: 'Online days', operationDays: 'Operation days', totalScore: 'Total score', rank: 'Rank',
    },
    rankOf: '{{rank}} of {{of}}',
    chart: { alarms: 'Alarms', km: 'Mileage (km)' },
    section: { daily: 'Daily trend', groups: 'Alarms by group', categories: 'Appraisal categories', topTypes: 'Top 10 alarm types', risky: 'Top 10 risky vehicles', types: 'Alarm types', days: 'Day by day' },
    col: {
      group: 'Group', category: 'Category', count: 'Alarms', per100Km: 'Per 100 km', score: 'Score', alarmType: 'Alarm type', rank: 'Rank',
      vehiidno: 'Plate', company: 'Company', totalScore: 'Total', mileageKm: 'Mileage (km)', date: 'Date', online: 'Online', operation: 'Operated', normal: 'Normal running',
    },
    yes: 'Yes',
    no: 'No',
    notAssessed: 'Not assessed',
    unavailable: 'Single-vehicle report unavailable',
    normalRule: 'Normal running day: the device uploaded data that day and the vehicle drove at least 1 km; the single-vehicle report needs at least {{min}} of them.',
    teamNote: 'Fleet: every vehicle of the selected company and its sub-companies; alarms marked invalid are not counted.',
  },
});
