import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the terminal parameter screens (/information/params/baseParam, usualParam). */
export const TERMINAL_PARAMS_NS = 'terminalParams';

registerMessages(TERMINAL_PARAMS_NS, {
  zh: {
    baseTitle: '基础参数', usualTitle: '常用参数', vehicle: '车辆', vehiclePick: '搜索车牌', query: '查询', set: '设置',
    noVehicle: '请先选择车辆', noChange: '没有修改的参数', queried: '已读取终端参数（{{n}} 项）', unit: '单位', id: '参数 ID', name: '参数', value: '值',
    section: { comm: '通信参数', report: '位置汇报', phone: '电话', alarm: '报警与驾驶', camera: '拍照与图像', vehicle: '车辆信息', gnss: 'GNSS', can: 'CAN 总线' },
    task: '下发任务 #{{id}}', state: { queued: '离线排队', sent: '已下发', ok: '成功', failed: '失败', timeout: '超时' }, result: '结果', plate: '车牌',
    notANumber: '{{name}}：请输入 0 到 {{max}} 的整数',
  },
  en: {
    baseTitle: 'Basic parameters', usualTitle: 'Common parameters', vehicle: 'Vehicle', vehiclePick: 'Search a plate', query: 'Query', set: 'Set',
    noVehicle: 'Choose a vehicle first', noChange: 'No parameter was changed', queried: 'Read {{n}} parameters from the terminal', unit: 'Unit', id: 'Parameter id', name: 'Parameter', value: 'Value',
    section: { comm: 'Communication', report: 'Position reporting', phone: 'Telephone', alarm: 'Alarms and driving', camera: 'Camera and image', vehicle: 'Vehicle', gnss: 'GNSS', can: 'CAN bus' },
    task: 'Task #{{id}}', state: { queued: 'Offline, queued', sent: 'Sent', ok: 'Succeeded', failed: 'Failed', timeout: 'Timed out' }, result: 'Result', plate: 'Plate',
    notANumber: '{{name}}: enter a whole number from 0 to {{max}}',
  },
});
