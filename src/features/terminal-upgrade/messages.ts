import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the terminal upgrade screens (/information/params/hjwsUpdate, hjwsUpdate2). */
export const TERMINAL_UPGRADE_NS = 'terminalUpgrade';

registerMessages(TERMINAL_UPGRADE_NS, {
  zh: {
    packagesTitle: '升级包管理', pushTitle: '终端升级', upload: '上传升级包', file: '升级包文件', name: '名称', version: '版本', upgradeType: '升级类型',
    makerId: '制造商 ID', remark: '备注', size: '大小', uploader: '上传人', time: '上传时间', company: '所属单位', actions: '操作', remove: '删除',
    removeConfirm: '删除升级包“{{name}}”？', removed: '已删除', uploaded: '已上传“{{name}}”', noPackages: '暂无升级包', search: '搜索名称或版本',
    type: { 0: '终端', 12: 'IC 卡读卡器', 52: 'GNSS 模块' },
    fileRequired: '请选择升级包文件', fileTooBig: '升级包不能超过 60 MiB', nameRequired: '请输入名称', versionRequired: '请输入版本', makerRequired: '制造商 ID 为 1 到 5 个字母或数字',
    package: '升级包', packagePick: '选择升级包', vehicles: '车辆', push: '下发到 {{n}} 辆车', noPackage: '请选择升级包', noVehicles: '请选择车辆',
    history: '下发记录', taskId: '任务', createdBy: '下发人', createTime: '下发时间', progress: '进度', view: '查看', noTasks: '暂无下发记录',
    counts: '排队 {{queued}} · 已下发 {{sent}} · 成功 {{ok}} · 失败 {{failed}} · 超时 {{timeout}} · 已取消 {{cancelled}}',
    task: '下发任务 #{{id}}', plate: '车牌', state: '状态', result: '结果', cancelOne: '取消', cancelAll: '取消全部排队（{{n}}）',
    states: { queued: '离线排队', sent: '已下发', ok: '成功', failed: '失败', timeout: '超时', cancelled: '已取消' },
    hint: '在线终端立即下发；离线终端排队，重新上线后下发（24 小时内）。结果为终端 0x0108 应答：0 成功、1 失败、2 取消。',
    progressPct: '上传中 {{pct}}%', cancel: '取消', save: '上传',
    unanswered: '终端未应答（已重传 {{n}} 次）',
  },
  en: {
    packagesTitle: 'Upgrade packages', pushTitle: 'Terminal upgrade', upload: 'Upload package', file: 'Package file', name: 'Name', version: 'Version', upgradeType: 'Upgrade type',
    makerId: 'Manufacturer id', remark: 'Remark', size: 'Size', uploader: 'Uploaded by', time: 'Uploaded', company: 'Company', actions: 'Actions', remove: 'Delete',
    removeConfirm: 'Delete package "{{name}}"?', removed: 'Deleted', uploaded: 'Uploaded "{{name}}"', noPackages: 'No packages yet', search: 'Search name or version',
    type: { 0: 'Terminal', 12: 'IC card reader', 52: 'GNSS module' },
    fileRequired: 'Choose the package file', fileTooBig: 'The package must be at most 60 MiB', nameRequired: 'Enter a name', versionRequired: 'Enter the version', makerRequired: 'The manufacturer id is 1 to 5 letters or digits',
    package: 'Package', packagePick: 'Choose a package', vehicles: 'Vehicles', push: 'Push to {{n}} vehicles', noPackage: 'Choose a package', noVehicles: 'Choose vehicles',
    history: 'Pushes', taskId: 'Task', createdBy: 'Pushed by', createTime: 'Pushed', progress: 'Progress', view: 'View', noTasks: 'No pushes yet',
    counts: 'Queued {{queued}} · sent {{sent}} · succeeded {{ok}} · failed {{failed}} · timed out {{timeout}} · cancelled {{cancelled}}',
    task: 'Task #{{id}}', plate: 'Plate', state: 'State', result: 'Result', cancelOne: 'Cancel', cancelAll: 'Cancel all queued ({{n}})',
    states: { queued: 'Offline, queued', sent: 'Sent', ok: 'Succeeded', failed: 'Failed', timeout: 'Timed out', cancelled: 'Cancelled' },
    hint: 'Online terminals get it at once; offline ones are queued and get it when they come back (within 24 h). The result is the terminal\'s 0x0108: 0 ok, 1 failed, 2 cancelled.',
    progressPct: 'Uploading {{pct}}%', cancel: 'Cancel', save: 'Upload',
    unanswered: 'No answer from the terminal (sent again {{n}} times)',
  },
});
