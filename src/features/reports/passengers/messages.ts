import { registerReportMessages } from '../engine-report/messages.ts';

/** i18n namespace of the passenger flow and temperature report pages (issue 18). */
export const PASSENGER_REPORTS_NS = 'passengerReports';

registerReportMessages(PASSENGER_REPORTS_NS, {
  zh: {
    title: {
      lineAnalysis: '线路客流',
      carAnalysis: '车辆客流',
      passengerSupervision: '客流监管',
      bigDataAnalysis: '大数据分析',
      temperatureReport: '温度报表',
    },
    col: {
      lineName: '线路', direction: '方向', stationSeq: '站序', stationName: '站点',
      vehicles: '车辆数', boarding: '上车人数', alighting: '下车人数', boardingShare: '上车占比(%)', uploads: '上报次数', peakHour: '高峰时段',
      maxOnboard: '最大载客', overloads: '超员次数', abnormal: '异常计数', overloadRate: '超员率(%)', abnormalRate: '异常率(%)', peakBoarding: '高峰上车',
      time: '测量时间', kind: '温度类型', mask: '是否戴口罩', celsius: '体温(℃)', fever: '疑似发热', image: '图片', uploadTime: '上传时间',
    },
    direction: { 0: '上行', 1: '下行' },
    lines: { label: '线路', all: '全部线路（最多{{max}}条）', tooMany: '最多选择{{max}}条线路，已选{{count}}条' },
    kind: { 0: '额温', 1: '腕温', 2: '耳温' },
    unknown: '未检测',
    photoPending: '图片 {{id}} 未上传',
    photoOpen: '查看图片',
    photoTitle: '{{plate}} {{celsius}}℃',
    hour: '{{h}}时',
    chart: { boarding: '上车人数', alighting: '下车人数', hours: '按小时客流（所选车辆与日期合计）' },
    figures: {
      temperature: '测量 {{count}} 次，疑似发热 {{fever}} 次，正常率 {{rate}}%，戴口罩 {{masked}} 次',
      passengers: '上车 {{boarding}} 人，下车 {{alighting}} 人',
    },
    capped: '数据量过大，仅显示前{{cap}}条',
    note: {
      passengers: '客流来自车载客流计数器（JT/T 1078 0x1005，前门上车、后门下车，按站上报）。超员：下客后车内人数超过核定载客（系统参数“车辆核定载客人数”，默认 80 人）；异常计数：上车人数多于车内人数、单门单站人数超过核定载客或计数时长超过 30 分钟。最多显示或导出前 10000 条。',
      line: '按线路、方向和站点合计所选公司车辆的上下车人数（可选线路，最多 30 条）；上车占比为该站上车人数占该线路上车人数的比例。',
      temperature: '体温来自车载测温终端，37.3℃ 及以上为疑似发热；正常率 = 正常次数 / 测量次数。查询时间段不超过 7 天。',
    },
  },
  en: {
    title: {
      lineAnalysis: 'Passengers per line',
      carAnalysis: 'Passengers per vehicle',
      passengerSupervision: 'Passenger supervision',
      bigDataAnalysis: 'Big-data analysis',
      temperatureReport: 'Temperature report',
    },
    filter: { pickVehicles: 'Check vehicles in the tree (at most {{max}})' },
    col: {
      lineName: 'Line', direction: 'Direction', stationSeq: 'Stop no.', stationName: 'Stop',
      vehicles: 'Vehicles', boarding: 'Boarded', alighting: 'Alighted', boardingShare: 'Share of boardings (%)', uploads: 'Uploads', peakHour: 'Peak hour',
      maxOnboard: 'Most on board', overloads: 'Overloads', abnormal: 'Abnormal counts', overloadRate: 'Overload rate (%)', abnormalRate: 'Abnormal rate (%)',
      peakBoarding: 'Peak-hour boardings', time: 'Measured', kind: 'Type', mask: 'Mask worn', celsius: 'Temperature (°C)', fever: 'Suspected fever',
      image: 'Image', uploadTime: 'Uploaded',
    },
    direction: { 0: 'Up', 1: 'Down' },
    lines: { label: 'Lines', all: 'All lines (at most {{max}})', tooMany: 'Choose at most {{max}} lines ({{count}} chosen)' },
    kind: { 0: 'Forehead', 1: 'Wrist', 2: 'Ear' },
    unknown: 'Not detected',
    photoPending: 'Photo {{id}} not uploaded',
    photoOpen: 'Open the photo',
    photoTitle: '{{plate}} {{celsius}} °C',
    hour: '{{h}}:00',
    chart: { boarding: 'Boarded', alighting: 'Alighted', hours: 'Passengers by hour (selected vehicles and days together)' },
    figures: {
      temperature: '{{count}} measurements, {{fever}} suspected fever, normal rate {{rate}} %, {{masked}} with a mask',
      passengers: '{{boarding}} boarded, {{alighting}} alighted',
    },
    capped: 'Too many rows: only the first {{cap}} are shown',
    note: {
      passengers: 'Counts come from the buses\' passenger counters (JT/T 1078 0x1005: front door boards, rear door alights, per stop). Overload: more on board after the stop than the rated load (the system parameter "Rated passenger load", 80 by default); abnormal count: more boarded than are on board, more through one door at one stop than the rated load, or a count open over 30 minutes. At most the first 10,000 rows are shown or exported.',
      line: 'Boardings and alightings of the selected company\'s vehicles per line, direction and stop (lines may be chosen, at most 30); the share is the stop\'s part of its line\'s boardings.',
      temperature: 'Temperatures come from the buses\' measuring terminals; 37.3 °C and above is a suspected fever; normal rate = normal / measured. At most 7 days.',
    },
  },
}, { wholeCompany: true });
