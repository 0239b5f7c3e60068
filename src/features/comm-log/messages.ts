import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the communication log screens (/monitor/deviceLog, /monitor/messageLog). */
export const COMM_LOG_NS = 'commLog';

registerMessages(COMM_LOG_NS, {
  zh: {
    deviceTitle: '通讯日志查询', messageTitle: '设备消息查询', vehicle: '车辆', vehiclePick: '搜索车牌', from: '开始时间', to: '结束时间',
    direction: '方向', all: '全部', up: '上行（终端→平台）', down: '下行（平台→终端）', upShort: '上行', downShort: '下行',
    msgIds: '消息 ID', msgIdsPlaceholder: '如 0x0200,0x8001', search: '查询', noVehicle: '请先选择车辆',
    time: '时间', msgId: '消息 ID', msgName: '消息', serial: '流水号', length: '长度', detail: '详情', hide: '收起',
    hex: '原始报文（十六进制）', decoded: '解析结果', decodeError: '解析失败：{{error}}', none: '请选择车辆和时间范围后查询',
    type: { transparent: '透传数据', waybill: '电子运单', driver: '驾驶员身份', upgrade: '升级结果' },
    plate: '车牌', content: '内容',
    uploadLog: '上传终端日志', lines: '行数', ask: '请求日志', logTitle: '终端日志', asking: '正在等待终端上传…', records: '历史请求',
    state: { ok: '成功', failed: '失败', timeout: '超时', sent: '已下发', offline: '离线', queued: '排队' }, sendTime: '请求时间', user: '操作人', view: '查看',
  },
  en: {
    deviceTitle: 'Communication log', messageTitle: 'Device messages', vehicle: 'Vehicle', vehiclePick: 'Search a plate', from: 'From', to: 'To',
    direction: 'Direction', all: 'All', up: 'Up (terminal → platform)', down: 'Down (platform → terminal)', upShort: 'Up', downShort: 'Down',
    msgIds: 'Message ids', msgIdsPlaceholder: 'e.g. 0x0200,0x8001', search: 'Search', noVehicle: 'Choose a vehicle first',
    time: 'Time', msgId: 'Message id', msgName: 'Message', serial: 'Serial', length: 'Length', detail: 'Details', hide: 'Hide',
    hex: 'Raw frame (hex)', decoded: 'Decoded', decodeError: 'Does not decode: {{error}}', none: 'Choose a vehicle and a time range, then search',
    type: { transparent: 'Transparent data', waybill: 'E-waybill', driver: 'Driver identity', upgrade: 'Upgrade result' },
    plate: 'Plate', content: 'Content',
    uploadLog: 'Fetch terminal log', lines: 'Lines', ask: 'Ask for the log', logTitle: 'Terminal log', asking: 'Waiting for the terminal…', records: 'Earlier requests',
    state: { ok: 'OK', failed: 'Failed', timeout: 'Timed out', sent: 'Sent', offline: 'Offline', queued: 'Queued' }, sendTime: 'Asked at', user: 'By', view: 'View',
  },
});
