import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the photo wall (/monitor/photoWall). */
export const PHOTOWALL_NS = 'photowall';

registerMessages(PHOTOWALL_NS, {
  zh: {
    title: '照片墙',
    picker: { label: '照片墙', placeholder: '选择照片墙', mine: '我的照片墙', others: '其他照片墙', none: '还没有照片墙，点击“新增”创建一个' },
    create: '新增', edit: '修改', delete: '删除', snapNow: '立即拍照', refresh: '刷新',
    refreshEvery: '每 {{n}} 秒刷新 · 更新于 {{time}}',
    hidden: '另有 {{n}} 辆车不在您的管辖范围内，未显示',
    snapDone: '已向 {{asked}} 辆在线车辆下发拍照，收到 {{photos}} 张照片（{{offline}} 辆离线）',
    deleteConfirm: '确定删除照片墙「{{name}}」？',
    deleted: '已删除',
    tile: { channel: '通道 {{n}}', online: '在线', offline: '离线', noPhoto: '暂无照片', alarm: '报警', alarmed: '已报警 #{{id}}' },
    form: {
      createTitle: '新增照片墙', editTitle: '修改照片墙', name: '名称', vehicles: '车辆', vehiclePick: '搜索车牌并添加',
      channels: '通道', channelsHint: '不选：每辆车的全部摄像头', refreshSeconds: '刷新间隔（秒）', remark: '备注',
      nameRequired: '请输入名称', nameTooLong: '名称不能超过 {{n}} 个字符', vehiclesRequired: '请至少添加一辆车', vehiclesTooMany: '最多 {{n}} 辆车',
      refreshRange: '刷新间隔应在 {{min}}–{{max}} 秒之间', remove: '移除',
    },
    alarm: {
      title: '照片报警：{{plate}} 通道 {{channel}}', type: '报警类型', reason: '原因', reasonRequired: '请填写原因', submit: '生成报警',
      done: '已生成报警 #{{id}}（{{name}}），可在报警处理中查看',
    },
  },
  en: {
    title: 'Photo wall',
    picker: { label: 'Photo wall', placeholder: 'Pick a photo wall', mine: 'My photo walls', others: 'Other photo walls', none: 'No photo wall yet: press Add to create one' },
    create: 'Add', edit: 'Edit', delete: 'Delete', snapNow: 'Snap now', refresh: 'Refresh',
    refreshEvery: 'Refreshes every {{n}} s · updated {{time}}',
    hidden: '{{n}} more vehicle(s) are outside your scope and not shown',
    snapDone: 'Asked {{asked}} online vehicle(s) for photos, received {{photos}} ({{offline}} offline)',
    deleteConfirm: 'Delete the photo wall "{{name}}"?',
    deleted: 'Deleted',
    tile: { channel: 'Channel {{n}}', online: 'Online', offline: 'Offline', noPhoto: 'No photo yet', alarm: 'Alarm', alarmed: 'Alarm #{{id}}' },
    form: {
      createTitle: 'Add photo wall', editTitle: 'Edit photo wall', name: 'Name', vehicles: 'Vehicles', vehiclePick: 'Search a plate to add',
      channels: 'Channels', channelsHint: 'None: every camera of each vehicle', refreshSeconds: 'Refresh interval (s)', remark: 'Remark',
      nameRequired: 'Enter a name', nameTooLong: 'At most {{n}} characters', vehiclesRequired: 'Add at least one vehicle', vehiclesTooMany: 'At most {{n}} vehicles',
      refreshRange: 'The refresh interval must be {{min}}–{{max}} s', remove: 'Remove',
    },
    alarm: {
      title: 'Alarm from photo: {{plate}} channel {{channel}}', type: 'Alarm type', reason: 'Reason', reasonRequired: 'Enter a reason', submit: 'Raise alarm',
      done: 'Alarm #{{id}} ({{name}}) raised: see it in alarm handling',
    },
  },
});
