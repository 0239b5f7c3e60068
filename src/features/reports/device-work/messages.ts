import { registerReportMessages } from '../engine-report/messages.ts';

/** i18n namespace of the device work, online analysis and early-morning report pages (issue 18). */
export const DEVICE_REPORTS_NS = 'deviceReports';

registerReportMessages(DEVICE_REPORTS_NS, {
  zh: {
    ongoing: '持续中',
    title: {
      deviceOnlineReport: '设备在线报表',
      deviceOnlineStatistics: '设备在线统计',
      deviceStorageAbnormal: '存储异常',
      deviceAbnormalStatistics: '设备异常统计',
      deviceAbnormalReport: '设备异常报表',
      onlineDailyReport: '在线日报',
      onlineRateReport: '上线率报表',
      morningOperationDaily: '凌晨运营日报',
      morningOperationStatistics: '凌晨运营统计',
    },
    note: {
      online: '在线：终端上报的位置在3分钟内到达平台即为通信；相邻两次通信间隔超过3分钟记一次离线（计入离线结束当日）。盲区补传的位置只计入当日上线，不算通信。',
      faults: '设备异常来自终端硬件故障报警：JT/T 808 报警位（定位模块、天线、电源、显示屏、TTS、摄像头、IC卡、VSS）与 JT/T 1078 视频报警（0x14：视频丢失、遮挡、存储单元故障、其他视频设备故障、存储阈值）。按开始时间统计。',
      storage: '存储异常：JT/T 1078 视频报警 0x14 的存储单元故障（位2）与特殊报警录像达到存储阈值（位6），从出现到消失记一次。',
      onlineDay: '上线日：当日至少有一条数据；营运日：当日轨迹里程≥1公里。上线率 = 上线天数 / 统计天数。',
      morning: '凌晨时段为 02:00–05:00（北京时间），按轨迹段终点所在时刻计入；日报只列出凌晨有行驶的日期。',
    },
    col: {
      online: '当日在线', sessions: '上线次数', onlineMinutes: '在线时长(分钟)',
      offlines: '离线次数', offlineMinutes: '离线时长(分钟)', longestOfflineMinutes: '最长离线(分钟)', firstContact: '首次通信', lastContact: '末次通信',
      days: '统计天数', onlineDays: '在线天数', onlineTimeRate: '在线时长率(%)', fault: '异常类型', startTime: '开始时间', endTime: '结束时间',
      minutes: '时长(分钟)', count: '次数', place: '位置(经度,纬度)', gnss: '定位模块', power: '电源', camera: '摄像头/视频', storage: '存储',
      peripheral: '外设', other: '其他', totalFaults: '合计', faultMinutes: '异常时长(分钟)', points: '上报点数', trackKm: '轨迹里程(km)',
      operation: '营运日', firstTime: '首点时间', lastTime: '末点时间', operationDays: '营运天数', onlineRate: '上线率(%)', operationRate: '营运率(%)',
      morningKm: '凌晨里程(km)', morningMinutes: '凌晨时长(分钟)', tripKm: '当日行程里程(km)', drivingMinutes: '当日行驶时长(分钟)',
      morningDays: '凌晨运营天数', share: '凌晨运营天数占比(%)', onlineDaysUp: '上线天数',
    },
  },
  en: {
    ongoing: 'ongoing',
    title: {
      deviceOnlineReport: 'Device online report',
      deviceOnlineStatistics: 'Device online statistics',
      deviceStorageAbnormal: 'Storage faults',
      deviceAbnormalStatistics: 'Device fault statistics',
      deviceAbnormalReport: 'Device fault report',
      onlineDailyReport: 'Online daily report',
      onlineRateReport: 'Online rate report',
      morningOperationDaily: 'Early-morning daily',
      morningOperationStatistics: 'Early-morning statistics',
    },
    note: {
      online: 'Contact: a position that reached the platform within 3 minutes of its GPS time; a gap over 3 minutes between contacts is one offline (counted on the day it ends). Blind-area re-uploads make the day online but are no contact.',
      faults: 'Device faults are the terminals\' hardware-failure alarms: JT/T 808 alarm bits (GNSS module, antenna, power, display, TTS, camera, IC card, VSS) and JT/T 1078 video alarms (0x14: signal loss, occlusion, storage unit fault, other video device fault, storage threshold), by start time.',
      storage: 'Storage faults: the JT/T 1078 video alarm item 0x14 storage unit fault (bit 2) and special-recording storage threshold (bit 6), one per occurrence from rise to fall.',
      onlineDay: 'Online day: at least one data item that day; operation day: ≥ 1 km of track that day. Online rate = online days / days.',
      morning: 'The early morning is 02:00–05:00 China time; a track segment counts at the time it ends. The daily list shows only days with early-morning driving.',
    },
    col: {
      online: 'Online', sessions: 'Sessions', onlineMinutes: 'Online minutes',
      offlines: 'Offlines', offlineMinutes: 'Offline minutes', longestOfflineMinutes: 'Longest offline (min)', firstContact: 'First contact', lastContact: 'Last contact',
      days: 'Days', onlineDays: 'Online days', onlineTimeRate: 'Online time rate (%)', fault: 'Fault', startTime: 'From', endTime: 'To',
      minutes: 'Minutes', count: 'Occurrences', place: 'Place (lng,lat)', gnss: 'GNSS', power: 'Power', camera: 'Camera / video', storage: 'Storage',
      peripheral: 'Peripherals', other: 'Other', totalFaults: 'Total', faultMinutes: 'Fault minutes', points: 'Points', trackKm: 'Track km',
      operation: 'Operation day', firstTime: 'First point', lastTime: 'Last point', operationDays: 'Operation days', onlineRate: 'Online rate (%)', operationRate: 'Operation rate (%)',
      morningKm: 'Early-morning km', morningMinutes: 'Early-morning minutes', tripKm: 'Day trip km', drivingMinutes: 'Day driving minutes',
      morningDays: 'Early-morning days', share: 'Share of days (%)', onlineDaysUp: 'Online days',
    },
  },
});
