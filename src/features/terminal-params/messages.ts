import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the terminal parameter screens (/information/params/baseParam, usualParam, adasParam, dsmParam, hjwsParam). */
export const TERMINAL_PARAMS_NS = 'terminalParams';

registerMessages(TERMINAL_PARAMS_NS, {
  zh: {
    baseTitle: '基础参数', usualTitle: '常用参数', vehicle: '车辆', vehiclePick: '搜索车牌', query: '查询', set: '设置',
    noVehicle: '请先选择车辆', noChange: '没有修改的参数', queried: '已读取终端参数（{{n}} 项）', unit: '单位', id: '参数 ID', name: '参数', value: '值',
    section: { comm: '通信参数', report: '位置汇报', phone: '电话', alarm: '报警与驾驶', camera: '拍照与图像', vehicle: '车辆信息', gnss: 'GNSS', can: 'CAN 总线' },
    task: '下发任务 #{{id}}', state: { queued: '离线排队', sent: '已下发', ok: '成功', failed: '失败', timeout: '超时' }, result: '结果', plate: '车牌',
    notANumber: '{{name}}：请输入 0 到 {{max}} 的整数',
    adasTitle: 'ADAS 参数', dsmTitle: 'DSM 参数', hjwsTitle: '环卫/渣土车控制器参数', notRead: '请先查询终端当前参数', blockMissing: '终端未返回该参数（可能不支持主动安全扩展）',
    range: '范围 {{min}}–{{max}}', outOfRange: '{{name}}：请输入 {{min}} 到 {{max}} 的整数',
    group: { general: '报警通用', photo: '主动拍照', obstacle: '障碍物报警', laneChange: '频繁变道报警', laneDeparture: '车道偏离报警', forwardCollision: '前向碰撞报警', pedestrian: '行人碰撞报警', headway: '车距过近报警', roadSign: '道路标志识别', fatigue: '疲劳驾驶报警', phone: '接打电话报警', smoking: '抽烟报警', distraction: '分神驾驶报警', abnormal: '驾驶行为异常报警', lift: '举升', seal: '密闭', load: '载重', speed: '限速' },
    batch: '批量下发', batchSource: '下发内容', sourceForm: '当前表单', sourceTemplate: '模板：{{name}}', batchSend: '下发到 {{n}} 辆车', noVehicles: '请选择车辆', noParams: '没有可下发的参数',
    counts: '排队 {{queued}} · 已下发 {{sent}} · 成功 {{ok}} · 失败 {{failed}} · 超时 {{timeout}}',
    templates: '参数模板', templateName: '模板名称', templateRemark: '备注', saveTemplate: '保存为模板', apply: '应用', remove: '删除', save: '保存', cancel: '取消',
    templateParams: '参数数', templateBy: '创建人', updated: '更新时间', noTemplates: '暂无模板', applied: '已应用模板“{{name}}”，请确认后设置或下发', removeConfirm: '删除模板“{{name}}”？',
    nameRequired: '请输入模板名称',
  },
  en: {
    baseTitle: 'Basic parameters', usualTitle: 'Common parameters', vehicle: 'Vehicle', vehiclePick: 'Search a plate', query: 'Query', set: 'Set',
    noVehicle: 'Choose a vehicle first', noChange: 'No parameter was changed', queried: 'Read {{n}} parameters from the terminal', unit: 'Unit', id: 'Parameter id', name: 'Parameter', value: 'Value',
    section: { comm: 'Communication', report: 'Position reporting', phone: 'Telephone', alarm: 'Alarms and driving', camera: 'Camera and image', vehicle: 'Vehicle', gnss: 'GNSS', can: 'CAN bus' },
    task: 'Task #{{id}}', state: { queued: 'Offline, queued', sent: 'Sent', ok: 'Succeeded', failed: 'Failed', timeout: 'Timed out' }, result: 'Result', plate: 'Plate',
    notANumber: '{{name}}: enter a whole number from 0 to {{max}}',
    adasTitle: 'ADAS parameters', dsmTitle: 'DSM parameters', hjwsTitle: 'Slag-truck controller parameters', notRead: 'Query the terminal\'s current values first', blockMissing: 'The terminal did not answer this parameter (it may not support the active-safety extension)',
    range: 'Range {{min}}–{{max}}', outOfRange: '{{name}}: enter a whole number from {{min}} to {{max}}',
    group: { general: 'Alarm settings', photo: 'Active photos', obstacle: 'Obstacle', laneChange: 'Frequent lane change', laneDeparture: 'Lane departure', forwardCollision: 'Forward collision', pedestrian: 'Pedestrian collision', headway: 'Headway too close', roadSign: 'Road sign recognition', fatigue: 'Fatigue', phone: 'Phone call', smoking: 'Smoking', distraction: 'Distraction', abnormal: 'Abnormal driving', lift: 'Body lift', seal: 'Cover', load: 'Load', speed: 'Speed limits' },
    batch: 'Send to several vehicles', batchSource: 'What to send', sourceForm: 'The form above', sourceTemplate: 'Template: {{name}}', batchSend: 'Send to {{n}} vehicles', noVehicles: 'Choose vehicles', noParams: 'Nothing to send',
    counts: 'Queued {{queued}} · sent {{sent}} · succeeded {{ok}} · failed {{failed}} · timed out {{timeout}}',
    templates: 'Parameter templates', templateName: 'Template name', templateRemark: 'Remark', saveTemplate: 'Save as template', apply: 'Apply', remove: 'Delete', save: 'Save', cancel: 'Cancel',
    templateParams: 'Parameters', templateBy: 'Created by', updated: 'Updated', noTemplates: 'No templates yet', applied: 'Template "{{name}}" applied: check it, then set or send', removeConfirm: 'Delete template "{{name}}"?',
    nameRequired: 'Enter a template name',
  },
});
