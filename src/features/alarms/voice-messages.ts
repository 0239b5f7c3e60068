import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the pop-up's voice buttons: intercom, phone callback, reminder sounds. */
export const VOICE_NS = 'alarmVoice';

registerMessages(VOICE_NS, {
  zh: {
    talk: {
      title: '对讲 · {{plate}}',
      state: { idle: '准备中', connecting: '正在连接…', talking: '对讲中', stopped: '已结束' },
      hangUp: '挂断',
      again: '重新对讲',
      counters: '已发送 {{sent}} 帧 · 已接收 {{received}} 帧',
      hint: '请对着麦克风讲话，车内声音将从扬声器播放。',
      busy: '该终端正在与其他用户对讲',
    },
    phone: {
      title: '电话提醒 · {{plate}}',
      number: '回拨号码',
      numberHint: '终端将拨打此号码',
      listen: '监听（只听车内声音，驾驶员不可通话）',
      call: '回拨',
      invalid: '请输入正确的电话号码（3–20位数字）',
      result: '已下发电话回拨。终端应答：{{result}}',
    },
    reminder: {
      music: '铃声已下发到终端，播放约 {{seconds}} 秒',
      audio: '提醒音已下发到终端，播放约 {{seconds}} 秒',
    },
    obd: {
      title: 'OBD · {{plate}}',
      titleLarge: '大车OBD（J1939）· {{plate}}',
      engineRpm: '发动机转速', coolantC: '冷却液温度', fuelPct: '燃油液位', speedKmh: '车速（CAN）', engineLoadPct: '发动机负荷', engineHours: '发动机累计运行时间',
      none: '该车辆终端未上报CAN数据',
      reading: '项目', value: '数值',
      updated: '数据时间：{{time}}（每5秒刷新）',
      na: '—',
    },
  },
  en: {
    talk: {
      title: 'Intercom · {{plate}}',
      state: { idle: 'Preparing', connecting: 'Connecting…', talking: 'Talking', stopped: 'Ended' },
      hangUp: 'Hang up',
      again: 'Talk again',
      counters: '{{sent}} frames sent · {{received}} received',
      hint: 'Speak into the microphone; the cab is heard on your speakers.',
      busy: 'The terminal is in an intercom with another user',
    },
    phone: {
      title: 'Phone reminder · {{plate}}',
      number: 'Number to call',
      numberHint: 'The terminal dials this number',
      listen: 'Listen only (hear the cab; the driver cannot talk)',
      call: 'Call back',
      invalid: 'Enter a valid phone number (3–20 digits)',
      result: 'Callback sent. Terminal answer: {{result}}',
    },
    reminder: {
      music: 'Ring sent to the terminal, playing for about {{seconds}} s',
      audio: 'Alert sent to the terminal, playing for about {{seconds}} s',
    },
    obd: {
      title: 'OBD · {{plate}}',
      titleLarge: 'Large-vehicle OBD (J1939) · {{plate}}',
      engineRpm: 'Engine speed', coolantC: 'Coolant temperature', fuelPct: 'Fuel level', speedKmh: 'Speed (CAN)', engineLoadPct: 'Engine load', engineHours: 'Engine hours',
      none: 'The vehicle’s terminal has not reported CAN data',
      reading: 'Reading', value: 'Value',
      updated: 'Data of {{time}} (refreshed every 5 s)',
      na: '—',
    },
  },
});
