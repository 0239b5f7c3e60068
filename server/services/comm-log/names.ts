/**
 * Names of JT/T 808 / JT/T 1078 message ids as the communication log shows them (Chinese as the
 * standards name them, English beside). An id not listed shows as its hex.
 */
const NAMES: Record<number, [string, string]> = {
  0x0001: ['终端通用应答', 'Terminal general response'],
  0x0002: ['终端心跳', 'Heartbeat'],
  0x0003: ['终端注销', 'Terminal unregistration'],
  0x0100: ['终端注册', 'Terminal registration'],
  0x0102: ['终端鉴权', 'Terminal authentication'],
  0x0104: ['查询终端参数应答', 'Parameter query answer'],
  0x0107: ['查询终端属性应答', 'Terminal attributes answer'],
  0x0108: ['终端升级结果通知', 'Upgrade result'],
  0x0200: ['位置信息汇报', 'Location report'],
  0x0201: ['位置信息查询应答', 'Position query answer'],
  0x0701: ['电子运单上报', 'Electronic waybill'],
  0x0702: ['驾驶员身份信息采集上报', 'Driver identity'],
  0x0704: ['定位数据批量上传', 'Batch locations'],
  0x0705: ['CAN 总线数据上传', 'CAN data upload'],
  0x0800: ['多媒体事件信息上传', 'Multimedia event'],
  0x0801: ['多媒体数据上传', 'Multimedia data'],
  0x0805: ['摄像头立即拍摄命令应答', 'Camera shot answer'],
  0x0900: ['数据上行透传', 'Uplink transparent data'],
  0x1003: ['终端上传音视频属性', 'Audio/video attributes'],
  0x1205: ['终端上传音视频资源列表', 'Media resource list'],
  0x1206: ['文件上传完成通知', 'File upload done'],
  0x8001: ['平台通用应答', 'Platform general response'],
  0x8003: ['补传分包请求', 'Sub-package resend request'],
  0x8100: ['终端注册应答', 'Registration answer'],
  0x8103: ['设置终端参数', 'Set parameters'],
  0x8104: ['查询终端参数', 'Query all parameters'],
  0x8105: ['终端控制', 'Terminal control'],
  0x8106: ['查询指定终端参数', 'Query chosen parameters'],
  0x8107: ['查询终端属性', 'Query attributes'],
  0x8201: ['位置信息查询', 'Position query'],
  0x8202: ['临时位置跟踪控制', 'Temporary tracking'],
  0x8203: ['人工确认报警消息', 'Alarm confirmation'],
  0x8300: ['文本信息下发', 'Text message'],
  0x8400: ['电话回拨', 'Phone callback'],
  0x8600: ['设置圆形区域', 'Set circle areas'],
  0x8602: ['设置矩形区域', 'Set rectangle areas'],
  0x8604: ['设置多边形区域', 'Set polygon areas'],
  0x8606: ['设置路线', 'Set routes'],
  0x8800: ['多媒体数据上传应答', 'Multimedia data answer'],
  0x8801: ['摄像头立即拍摄命令', 'Camera shot'],
  0x8900: ['数据下行透传', 'Downlink transparent data'],
  0x9003: ['查询终端音视频属性', 'Query audio/video attributes'],
  0x9101: ['实时音视频传输请求', 'Live media request'],
  0x9102: ['音视频实时传输控制', 'Live media control'],
  0x9201: ['平台下发远程录像回放请求', 'Playback request'],
  0x9202: ['平台下发远程录像回放控制', 'Playback control'],
  0x9205: ['查询资源列表', 'Query media resources'],
  0x9206: ['文件上传指令', 'File upload'],
  0x9207: ['文件上传控制', 'File upload control'],
};

export const hexId = (id: number): string => `0x${id.toString(16).padStart(4, '0')}`;

export function messageName(id: number, lang: 'zh' | 'en'): string {
  const n = NAMES[id];
  return n ? n[lang === 'zh' ? 0 : 1] : hexId(id);
}
