import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the text/audio resource and voice dispatch screens (issue 19). */
export const VOICE_RES_NS = 'voiceResources';

registerMessages(VOICE_RES_NS, {
  zh: {
    textTitle: '文本资源', audioTitle: '音频资源', sendTitle: '语音下发', logTitle: '语音下发日志',
    name: '名称', content: '内容', remark: '备注', company: '所属单位', createdBy: '创建人', updateTime: '更新时间', createTime: '创建时间',
    textSearch: '搜索名称或内容', audioSearch: '搜索名称或文件名', createTitle: '新增文本', editTitle: '修改文本：{{name}}', deleteConfirm: '删除“{{name}}”？',
    nameRequired: '请输入名称', contentRequired: '消息内容不能为空', nameLength: '名称不能超过 50 个字符',
    upload: '上传音频', file: '音频文件', fileHint: 'MP3、WAV 或 OGG，最大 10 MiB，一次一个文件（按文件内容识别类型）', fileRequired: '请选择音频文件', fileTooBig: '音频文件不能超过 10 MiB',
    uploaded: '已上传“{{name}}”', save: '上传', progressPct: '上传中 {{pct}}%', format: '格式', size: '大小', play: '试听', fileName: '文件名',
    alarmSound: '报警提示音', useAsAlarm: '设为我的报警提示音', alarmSoundSet: '已设为报警提示音：{{name}}', alarmSoundCurrent: '当前报警提示音', useBuiltIn: '恢复内置提示音', builtInRestored: '已恢复内置提示音',
    source: '消息来源', typed: '输入文本', fromTemplate: '选择文本模板', template: '文本模板', templatePick: '选择模板', text: '消息内容', textPlaceholder: '输入要下发的文本（终端播报或显示）',
    types: '显示类型', type: { tts: '终端TTS播读', urgent: '紧急', display: '终端显示器显示', advertising: '广告屏显示' }, typesRequired: '请至少选择一种显示类型',
    valid: '有效期', validHint: '离线车辆在有效期内上线即补发，过期不再下发', validChoice: { 10: '10 分钟', 60: '1 小时', 360: '6 小时', 1440: '1 天', 4320: '3 天', 10080: '7 天' },
    vehicles: '车辆', noVehicles: '请选择车辆', tooMany: '一次最多下发 {{max}} 辆车，已选择 {{n}} 辆', send: '下发到 {{n}} 辆车', sent: '已创建下发任务 #{{id}}',
    task: '下发任务 #{{id}}', plate: '车牌', state: '状态', result: '结果', updated: '更新时间', expireTime: '有效期至', sender: '下发人', sendTime: '下发时间', progress: '进度', view: '查看',
    counts: '已应答 {{ok}} · 已下发 {{sent}} · 等待上线 {{queued}} · 失败 {{failed}} · 超时 {{timeout}} · 已过期 {{expired}} · 已撤销 {{cancelled}}',
    states: { queued: '等待上线', sent: '已下发', ok: '已应答', failed: '失败', timeout: '超时', cancelled: '已撤销', expired: '已过期' },
    allStates: '全部状态', plateSearch: '搜索车牌', textSearchLog: '搜索消息内容', withdraw: '撤销等待中的车辆', withdrawConfirm: '撤销任务 #{{id}} 中等待上线的车辆？已下发的不受影响。', withdrawn: '已撤销',
    byTask: '按任务', byVehicle: '按车辆', noTasks: '暂无下发记录', back: '返回列表', close: '关闭',
  },
  en: {
    textTitle: 'Text resources', audioTitle: 'Audio resources', sendTitle: 'Send TTS', logTitle: 'TTS log',
    name: 'Name', content: 'Content', remark: 'Remark', company: 'Company', createdBy: 'Created by', updateTime: 'Updated', createTime: 'Created',
    textSearch: 'Search name or content', audioSearch: 'Search name or file', createTitle: 'Add text', editTitle: 'Edit text: {{name}}', deleteConfirm: 'Delete "{{name}}"?',
    nameRequired: 'Enter a name', contentRequired: 'The message content is required', nameLength: 'At most 50 characters',
    upload: 'Upload audio', file: 'Audio file', fileHint: 'MP3, WAV or OGG, at most 10 MiB, one file at a time (the type is read from the content)', fileRequired: 'Choose the audio file', fileTooBig: 'The audio file must be at most 10 MiB',
    uploaded: 'Uploaded "{{name}}"', save: 'Upload', progressPct: 'Uploading {{pct}}%', format: 'Format', size: 'Size', play: 'Listen', fileName: 'File',
    alarmSound: 'Alarm sound', useAsAlarm: 'Use as my alarm sound', alarmSoundSet: 'Alarm sound set: {{name}}', alarmSoundCurrent: 'Current alarm sound', useBuiltIn: 'Use the built-in sound', builtInRestored: 'Built-in sound restored',
    source: 'Message', typed: 'Type a text', fromTemplate: 'Use a template', template: 'Text template', templatePick: 'Choose a template', text: 'Message content', textPlaceholder: 'The text the terminal speaks or shows',
    types: 'Display types', type: { tts: 'Terminal TTS', urgent: 'Urgent', display: 'Terminal display', advertising: 'Advertising screen' }, typesRequired: 'Choose at least one display type',
    valid: 'Valid for', validHint: 'An offline vehicle that comes back within this time still receives it; after it, never', validChoice: { 10: '10 minutes', 60: '1 hour', 360: '6 hours', 1440: '1 day', 4320: '3 days', 10080: '7 days' },
    vehicles: 'Vehicles', noVehicles: 'Choose vehicles', tooMany: 'At most {{max}} vehicles per dispatch; {{n}} selected', send: 'Send to {{n}} vehicles', sent: 'Dispatch #{{id}} created',
    task: 'Dispatch #{{id}}', plate: 'Plate', state: 'State', result: 'Result', updated: 'Updated', expireTime: 'Valid until', sender: 'Sent by', sendTime: 'Sent', progress: 'Progress', view: 'View',
    counts: 'Acknowledged {{ok}} · sent {{sent}} · waiting {{queued}} · failed {{failed}} · timed out {{timeout}} · expired {{expired}} · withdrawn {{cancelled}}',
    states: { queued: 'Waiting (offline)', sent: 'Sent', ok: 'Acknowledged', failed: 'Failed', timeout: 'Timed out', cancelled: 'Withdrawn', expired: 'Expired' },
    allStates: 'All states', plateSearch: 'Search plate', textSearchLog: 'Search message', withdraw: 'Withdraw waiting vehicles', withdrawConfirm: 'Withdraw the waiting vehicles of dispatch #{{id}}? Those already sent are not affected.', withdrawn: 'Withdrawn',
    byTask: 'By dispatch', byVehicle: 'By vehicle', noTasks: 'No dispatches yet', back: 'Back to the list', close: 'Close',
  },
});
