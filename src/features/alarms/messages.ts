import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the alarm pop-up and the alarm processing page. */
export const ALARMS_NS = 'alarms';

registerMessages(ALARMS_NS, {
  zh: {
    popup: {
      title: '报警提醒',
      vehicleOffline: '车辆不在线，无法向终端下发',
      unread: '未读报警 {{count}}',
      counterLabel: '报警',
      close: '关闭',
      hide: '收起',
      show: '展开报警',
      empty: '暂无新报警',
      more: '另有 {{count}} 条报警',
      processing: '报警处理',
    },
    field: {
      plate: '车牌号', alarmName: '报警类型', time: '报警时间', place: '位置', speed: '速度', risk: '风险等级', company: '所属公司',
      status: '处理状态', dealType: '处理方式', dealContent: '处理内容', dealUser: '处理人', dealTime: '处理时间', count: '次数',
      typical: '典型报警', endTime: '结束时间', device: '终端号', source: '来源',
    },
    speedValue: '{{speed}} km/h',
    risk: { high: '高风险', medium: '中风险', low: '低风险', ordinary: '一般' },
    status: { 0: '未处理', 1: '自动处理', 2: '人工处理', 3: '无效报警' },
    dealType: { 1: '风险解除', 2: '风险跟踪', 3: '风险升级', 4: '无风险' },
    source: { bit: '终端报警位', adas: 'ADAS', dms: 'DMS', platform: '平台' },
    button: {
      phoneReminder: '电话提醒', musicReminder: '铃声提醒', live: '实时视频', multiLive: '多路视频', talk: '对讲', photoSnap: '拍照',
      ttsReminder: '语音提醒', audioReminder: '音频提醒', obd: 'OBD', obdLargeVehicle: '大车OBD', trackPlayback: '轨迹回放', handle: '处理',
    },
    notBuilt: '“{{name}}”功能尚未提供。',
    tts: {
      title: '语音提醒（TTS）', text: '下发内容', textRequired: '请输入下发内容', send: '下发', sent: '终端应答：{{result}}',
      types: { tts: '语音播报', urgent: '紧急', display: '终端显示', advertising: '广告屏' },
    },
    handle: {
      title: '处理报警', action: '处理方式', content: '处理内容', submit: '确认', done: '已处理。终端应答：{{result}}', noTerminal: '已处理',
    },
    page: {
      all: '全部',
      vehicles: '车辆', vehiclesPlaceholder: '输入车牌号搜索', group: '报警分类', type: '报警类型', risk: '风险等级', status: '处理状态',
      typical: '典型报警', typicalAny: '全部', typicalYes: '仅典型', typicalNo: '非典型', start: '开始时间', end: '结束时间',
      search: '查询', reset: '重置', tooOld: '只能查询最近3个月的报警', badRange: '开始时间不能晚于结束时间',
      capped: '查询结果过多，仅显示前5000条（共匹配 {{matched}} 条）', total: '共 {{total}} 条', empty: '没有符合条件的报警',
      selected: '已选 {{count}} 条', batch: '批量处理', detail: '详情', confirm: '确认', invalid: '无效', markTypical: '标为典型',
      unmarkTypical: '取消典型', log: '处理记录', logEmpty: '暂无处理记录', invalidDone: '已设为无效报警。终端应答：{{result}}',
      typicalDone: '已更新典型标记', batchDone: '已处理 {{count}} 条报警', batchSkipped: '已处理 {{count}} 条报警；{{skipped}} 条已被他人处理，保持原处理结果', invalidFailed: '无效报警处理失败', typicalFailed: '标记典型报警失败',
      processFailed: '处理失败', action: '操作', yes: '是', no: '否',
      logPlatform: '平台联动',
      logAction: { confirm: '确认', handle: '处理', invalid: '无效', typical: '标为典型', untypical: '取消典型', tts: '语音下发', linkageTts: '联动语音播报', phone: '电话回拨', music: '铃声提醒', audio: '音频提醒' },
    },
  },
  en: {
    popup: {
      title: 'Alarms',
      vehicleOffline: 'The vehicle is offline: nothing can be sent to its terminal',
      unread: '{{count}} unread alarms', unread_one: '{{count}} unread alarm',
      counterLabel: 'Alarms',
      close: 'Close',
      hide: 'Hide',
      show: 'Show alarms',
      empty: 'No new alarms',
      more: '{{count}} more alarms', more_one: '{{count}} more alarm',
      processing: 'Alarm processing',
    },
    field: {
      plate: 'Plate', alarmName: 'Alarm type', time: 'Alarm time', place: 'Place', speed: 'Speed', risk: 'Risk level', company: 'Company',
      status: 'Processing state', dealType: 'Handling action', dealContent: 'Handling note', dealUser: 'Handled by', dealTime: 'Handled at', count: 'Count',
      typical: 'Typical', endTime: 'End time', device: 'Terminal', source: 'Source',
    },
    speedValue: '{{speed}} km/h',
    risk: { high: 'High', medium: 'Medium', low: 'Low', ordinary: 'Ordinary' },
    status: { 0: 'Not processed', 1: 'Automatically processed', 2: 'Manually processed', 3: 'Invalid' },
    dealType: { 1: 'Risk release', 2: 'Risk tracking', 3: 'Risk escalation', 4: 'No risk' },
    source: { bit: 'Terminal alarm bit', adas: 'ADAS', dms: 'DMS', platform: 'Platform' },
    button: {
      phoneReminder: 'Phone reminder', musicReminder: 'Sound reminder', live: 'Live video', multiLive: 'Multichannel video', talk: 'Intercom',
      photoSnap: 'Snapshot', ttsReminder: 'TTS reminder', audioReminder: 'Audio reminder', obd: 'OBD', obdLargeVehicle: 'Large-vehicle OBD',
      trackPlayback: 'Track playback', handle: 'Handle',
    },
    notBuilt: '"{{name}}" is not available yet.',
    tts: {
      title: 'TTS reminder', text: 'Text to send', textRequired: 'Enter the text to send', send: 'Send', sent: 'Terminal answer: {{result}}',
      types: { tts: 'Speak (TTS)', urgent: 'Urgent', display: 'Terminal display', advertising: 'Advertising screen' },
    },
    handle: {
      title: 'Handle alarm', action: 'Handling action', content: 'Handling note', submit: 'Confirm', done: 'Handled. Terminal answer: {{result}}', noTerminal: 'Handled',
    },
    page: {
      all: 'All',
      vehicles: 'Vehicles', vehiclesPlaceholder: 'Search by plate', group: 'Alarm group', type: 'Alarm type', risk: 'Risk level', status: 'Processing state',
      typical: 'Typical', typicalAny: 'All', typicalYes: 'Typical only', typicalNo: 'Not typical', start: 'Start', end: 'End',
      search: 'Search', reset: 'Reset', tooOld: 'Only alarms of the last 3 months can be queried', badRange: 'The start must not be after the end',
      capped: 'Too many results: only the first 5000 are shown ({{matched}} matched)', total: '{{total}} alarms', empty: 'No alarms match',
      selected: '{{count}} selected', batch: 'Handle selected', detail: 'Details', confirm: 'Confirm', invalid: 'Invalid', markTypical: 'Mark typical',
      unmarkTypical: 'Unmark typical', log: 'Processing log', logEmpty: 'Nothing logged yet', invalidDone: 'Set invalid. Terminal answer: {{result}}',
      typicalDone: 'Typical mark updated', batchDone: '{{count}} alarms handled', batchDone_one: '{{count}} alarm handled', batchSkipped: '{{count}} alarms handled; {{skipped}} had already been handled by someone else and keep that handling', invalidFailed: 'Invalid-alarm processing failed', typicalFailed: 'Marking typical failed',
      processFailed: 'Processing failed', action: 'Actions', yes: 'Yes', no: 'No',
      logPlatform: 'Platform linkage',
      logAction: { confirm: 'Confirm', handle: 'Handle', invalid: 'Invalid', typical: 'Mark typical', untypical: 'Unmark typical', tts: 'TTS sent', linkageTts: 'Linked TTS', phone: 'Phone callback', music: 'Sound reminder', audio: 'Audio reminder' },
    },
  },
});
