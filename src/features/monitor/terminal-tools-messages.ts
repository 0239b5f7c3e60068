import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the vehicle menu's terminal tools (TerminalTools.tsx). */
export const TERMINAL_TOOLS_NS = 'terminalTools';

registerMessages(TERMINAL_TOOLS_NS, {
  zh: {
    send: '下发', query: '查询', refused: '终端应答失败（结果 {{result}}）', ok: '终端已应答成功',
    position: { title: '{{plate}} · 位置查询', time: '定位时间', lnglat: '经纬度', speed: '速度', direction: '方向', none: '终端未返回位置' },
    tracking: { title: '{{plate}} · 临时跟踪', interval: '上报间隔（秒）', duration: '跟踪时长（秒）', start: '开始跟踪', stop: '停止跟踪',
      bad: '{{name}}：请输入 {{min}} 到 {{max}} 的整数', started: '终端将每 {{interval}} 秒上报一次位置，持续 {{duration}} 秒', stopped: '已停止临时跟踪' },
    control: { title: '{{plate}} · 终端控制', command: '控制命令', confirm: '确认向 {{plate}} 的终端下发“{{name}}”？', drastic: '该命令会使终端离线或清除其设置，需到现场才能恢复。',
      reset: '终端复位', factoryReset: '恢复出厂设置', shutdown: '终端关机', closeData: '关闭数据通信', closeWireless: '关闭所有无线通信' },
    attributes: { title: '{{plate}} · 终端属性', maker: '制造商 ID', model: '终端型号', terminalId: '终端 ID', iccid: 'ICCID', hardware: '硬件版本', firmware: '固件版本', gnss: 'GNSS', comm: '通信模块' },
  },
  en: {
    send: 'Send', query: 'Query', refused: 'The terminal refused (result {{result}})', ok: 'The terminal answered OK',
    position: { title: '{{plate}} · Locate now', time: 'Fix time', lnglat: 'Longitude, latitude', speed: 'Speed', direction: 'Heading', none: 'The terminal gave no position' },
    tracking: { title: '{{plate}} · Temporary tracking', interval: 'Report every (s)', duration: 'For (s)', start: 'Start tracking', stop: 'Stop tracking',
      bad: '{{name}}: enter a whole number from {{min}} to {{max}}', started: 'The terminal will report every {{interval}} s for {{duration}} s', stopped: 'Temporary tracking stopped' },
    control: { title: '{{plate}} · Terminal control', command: 'Command', confirm: 'Send "{{name}}" to the terminal of {{plate}}?', drastic: 'This takes the terminal off line or wipes its settings; only a visit to the vehicle undoes it.',
      reset: 'Restart terminal', factoryReset: 'Factory reset', shutdown: 'Shut down terminal', closeData: 'Close data link', closeWireless: 'Close all wireless links' },
    attributes: { title: '{{plate}} · Terminal attributes', maker: 'Maker id', model: 'Model', terminalId: 'Terminal id', iccid: 'ICCID', hardware: 'Hardware version', firmware: 'Firmware version', gnss: 'GNSS', comm: 'Radio' },
  },
});
