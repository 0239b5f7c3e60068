import { registerReportMessages } from '../engine-report/messages.ts';

/** i18n namespace of the mileage and operation report pages (issue 18). */
export const OPERATION_REPORTS_NS = 'operationReports';

registerReportMessages(OPERATION_REPORTS_NS, {
  zh: {
    title: {
      mileageStatistics: '里程统计',
      mileageDaily: '里程日报',
      parkingSummary: '停车汇总',
      parkingReport: '停车报表',
      travelDetails: '行程明细',
      nightStatistic: '夜间统计',
    },
    parked: '熄火停车',
    idling: '怠速',
    stillOpen: '（至当日最后一点）',
    note: {
      mileage: '仪表里程取自终端上报的里程（0x01），轨迹里程为连续轨迹点间的距离；营运日：当日里程≥1公里。',
      parking: '停车：速度低于1km/h、50米范围内持续≥3分钟；熄火时长多于点火时长为熄火停车，否则为怠速。位置为离线解析的区县（精确到区县，非街道），鼠标悬停显示经纬度。',
      trips: '行程：从点火或起步到下一次停车的起点；位置为离线解析的区县（精确到区县，非街道），鼠标悬停显示经纬度。',
      night: '夜间时段默认22:00–06:00（北京时间），按轨迹段终点所在时刻计入。',
    },
    col: {
      odometerKm: '仪表里程(km)', trackKm: '轨迹里程(km)', differenceKm: '差值(km)',
      operationDays: '营运天数', operation: '营运日', stops: '停车次数', stopMinutes: '停车时长(分钟)', parkingCount: '熄火停车次数',
      parkingMinutes: '熄火停车时长(分钟)', idlingCount: '怠速次数', idlingMinutes: '怠速时长(分钟)', startTime: '开始时间', endTime: '结束时间',
      minutes: '时长(分钟)', kind: '类型', place: '位置', startPlace: '开始位置', endPlace: '结束位置', km: '里程(km)',
      maxSpeed: '最高速度(km/h)', avgSpeed: '平均速度(km/h)', nightKm: '夜间里程(km)', nightMinutes: '夜间时长(分钟)', tripKm: '行程里程(km)',
      actions: '操作',
    },
  },
  en: {
    title: {
      mileageStatistics: 'Mileage statistics',
      mileageDaily: 'Mileage daily',
      parkingSummary: 'Parking summary',
      parkingReport: 'Parking report',
      travelDetails: 'Trip details',
      nightStatistic: 'Night statistics',
    },
    parked: 'Parked',
    idling: 'Idling',
    stillOpen: ' (to the day\'s last point)',
    note: {
      mileage: 'Odometer km comes from the terminals\' mileage item (0x01); track km is the distance between continuous track points. Operation day: ≥ 1 km that day.',
      parking: 'A stop: under 1 km/h within 50 m for ≥ 3 minutes; more time with ACC off than on is parked, otherwise idling. Places are counties from the offline address lookup (county level, not streets); hover for the coordinates.',
      trips: 'A trip: from ignition or setting off to where the next stop begins. Places are counties from the offline address lookup (county level, not streets); hover for the coordinates.',
      night: 'The night window is 22:00–06:00 China time by default; a track segment counts at the time it ends.',
    },
    col: {
      odometerKm: 'Odometer km', trackKm: 'Track km', differenceKm: 'Difference (km)',
      operationDays: 'Operation days', operation: 'Operation day', stops: 'Stops', stopMinutes: 'Stop minutes', parkingCount: 'Parked (ACC off)',
      parkingMinutes: 'Parked minutes', idlingCount: 'Idling (ACC on)', idlingMinutes: 'Idling minutes', startTime: 'From', endTime: 'To',
      minutes: 'Minutes', kind: 'Kind', place: 'Place', startPlace: 'From place', endPlace: 'To place', km: 'km',
      maxSpeed: 'Max speed (km/h)', avgSpeed: 'Avg speed (km/h)', nightKm: 'Night km', nightMinutes: 'Night minutes', tripKm: 'Trip km',
      actions: 'Actions',
    },
  },
});
