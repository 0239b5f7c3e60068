import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the cab supervision and customer portrait screens (issue 19). */
export const CAB_NS = 'cabSupervision';

registerMessages(CAB_NS, {
  zh: {
    title: '驾驶室监管', search: '搜索车牌或消息', allReasons: '全部原因', reason: '监管原因', message: '监管消息', vehicles: '车辆', company: '所属单位',
    target: '监管对象', targetVehicles: '{{n}} 辆车', targetCompany: '企业：{{name}}', records: '记录', lastSend: '最近一次下发', notSent: '未下发',
    createdBy: '创建人', createTime: '创建时间', view: '详情', create: '新增监管', createTitle: '新增驾驶室监管', save: '保存',
    reasons: { fatigue: '频繁疲劳驾驶报警', distraction: '频繁分神驾驶报警', phone: '行车接打电话', smoking: '行车抽烟', speeding: '频繁超速', other: '其他' },
    reasonRequired: '请选择监管原因', messageRequired: '请填写监管消息内容', vehiclesRequired: '请选择要监管的车辆', messagePlaceholder: '下发到驾驶室的文字，终端播报并显示',
    created: '已创建监管 #{{id}}', detail: '监管 #{{id}}', note: '监管记录', notePlaceholder: '填写处理情况（如已电话联系驾驶员）', addNote: '添加记录', noteRequired: '请填写记录内容', noteAdded: '已添加记录',
    send: '下发监管消息', sendTypes: '显示方式', types: { tts: '终端TTS播读', display: '终端显示器显示', urgent: '紧急' }, valid: '有效期', validChoice: { 60: '1 小时', 1440: '1 天', 4320: '3 天' },
    sent: '已下发，等待终端应答', kindNote: '记录', kindSend: '下发', plate: '车牌', state: '回执', updated: '更新时间', noRecords: '暂无记录',
    states: { queued: '待发送（离线）', sent: '已发送', ok: '已应答', failed: '终端拒绝', timeout: '应答超时', expired: '已过期' },
    suggestTitle: '建议监管车辆（近 {{days}} 天疲劳/分神等报警 ≥ {{n}} 次）', suggestNone: '暂无达到阈值的车辆', alarmsN: '{{n}} 次', supervise: '监管', lastSupervised: '上次监管 {{time}}', noDevice: '未安装终端',
    defaultMessage: { fatigue: '您近期疲劳驾驶报警频繁，请就近停车休息，注意行车安全。', distraction: '您近期分神驾驶报警频繁，请专心驾驶。', phone: '行车中请勿接打手持电话。', smoking: '行车中请勿抽烟。', speeding: '您近期超速频繁，请按限速行驶。', other: '' },
    // Customer portrait
    portraitTitle: '客户画像', month: '月份', vehiclesN: '车辆数', onlineRate: '上线车辆占比', mileage: '本月里程', alarms: '报警数', per100: '百公里报警', handlingRate: '处理率', safetyScore: '安全评分',
    scoredN: '{{n}} 辆参与评分', km: '公里', byType: '报警类型分布', type: '报警类型', count: '次数', riskyVehicles: '高风险车辆 TOP5', riskyDrivers: '高风险驾驶员 TOP5', driver: '驾驶员', cert: '从业资格证号',
    highRisk: '高风险报警', score: '评分', trend: '近 6 个月趋势', noData: '暂无数据', none: '—',
  },
  en: {
    title: 'Cab monitoring', search: 'Search plate or message', allReasons: 'All reasons', reason: 'Reason', message: 'Message', vehicles: 'Vehicles', company: 'Company',
    target: 'Supervised', targetVehicles: '{{n}} vehicles', targetCompany: 'Company: {{name}}', records: 'Records', lastSend: 'Last send', notSent: 'Not sent',
    createdBy: 'Created by', createTime: 'Created', view: 'Details', create: 'New supervision', createTitle: 'New cab supervision', save: 'Save',
    reasons: { fatigue: 'Repeated fatigue alarms', distraction: 'Repeated distraction alarms', phone: 'Phone use while driving', smoking: 'Smoking while driving', speeding: 'Repeated speeding', other: 'Other' },
    reasonRequired: 'Choose the reason', messageRequired: 'The supervision message is required', vehiclesRequired: 'Choose the vehicles to supervise', messagePlaceholder: 'Text for the cab: spoken and shown by the terminal',
    created: 'Supervision #{{id}} created', detail: 'Supervision #{{id}}', note: 'Note', notePlaceholder: 'What was done (e.g. the driver was called)', addNote: 'Add note', noteRequired: 'The note is required', noteAdded: 'Note added',
    send: 'Send to cab', sendTypes: 'Display', types: { tts: 'Terminal TTS', display: 'Terminal display', urgent: 'Urgent' }, valid: 'Valid for', validChoice: { 60: '1 hour', 1440: '1 day', 4320: '3 days' },
    sent: 'Sent; waiting for the terminals', kindNote: 'Note', kindSend: 'Send', plate: 'Plate', state: 'Receipt', updated: 'Updated', noRecords: 'No records yet',
    states: { queued: 'Waiting (offline)', sent: 'Sent', ok: 'Acknowledged', failed: 'Refused by terminal', timeout: 'No answer', expired: 'Expired' },
    suggestTitle: 'Suggested (≥ {{n}} fatigue/distraction alarms in {{days}} days)', suggestNone: 'No vehicle reaches the threshold', alarmsN: '{{n}} alarms', supervise: 'Supervise', lastSupervised: 'Last supervised {{time}}', noDevice: 'No terminal',
    defaultMessage: { fatigue: 'Frequent fatigue alarms: please stop and rest.', distraction: 'Frequent distraction alarms: please keep your attention on the road.', phone: 'Do not use a handheld phone while driving.', smoking: 'Do not smoke while driving.', speeding: 'Frequent speeding: keep to the limit.', other: '' },
    portraitTitle: 'Customer profile', month: 'Month', vehiclesN: 'Vehicles', onlineRate: 'Vehicles online (share)', mileage: 'Mileage (month)', alarms: 'Alarms', per100: 'Alarms per 100 km', handlingRate: 'Handled', safetyScore: 'Safety score',
    scoredN: '{{n}} vehicles scored', km: 'km', byType: 'Alarms by type', type: 'Alarm type', count: 'Count', riskyVehicles: 'Riskiest vehicles (top 5)', riskyDrivers: 'Riskiest drivers (top 5)', driver: 'Driver', cert: 'Certificate no.',
    highRisk: 'High-risk alarms', score: 'Score', trend: 'Last 6 months', noData: 'No data', none: '—',
  },
});
