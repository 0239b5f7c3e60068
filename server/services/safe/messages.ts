/** Messages of the safety-alarm calls, in both languages. */
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { ALARM_QUERY_CAP } from '../../../domain/alarms/engine.ts';
import type { Message } from '../../http/messages.ts';

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const SafeMessages = {
  alarmNotFound: pair('报警不存在或不在您的管辖范围内', 'The alarm does not exist or is outside your companies'),
  alreadyHandled: pair('该报警已被处理，请刷新后查看', 'This alarm has already been handled: refresh to see by whom'),
  allAlreadyHandled: pair('所选报警均已被处理，请刷新后查看', 'Every selected alarm has already been handled: refresh to see by whom'),
  lastThreeMonths: pair('只能查询最近3个月的报警', 'Only alarms of the last 3 months can be queried'),
  startAfterEnd: pair('开始时间不能晚于结束时间', 'The start time cannot be after the end time'),
  firstOnly: pair(`查询结果过多，仅显示前${ALARM_QUERY_CAP}条`, `Too many results: only the first ${ALARM_QUERY_CAP} are shown`),
  unknownType: (code: number): Message => pair(`未知的报警类型 ${code}`, `Unknown alarm type ${code}`),
  notRaisable: (code: number): Message => pair(`报警类型 ${code} 是分类，不能设置`, `Alarm type ${code} is a classification and cannot be set`),
  alreadyInvalid: pair('无效报警不能再处理', 'An invalid alarm cannot be processed'),
  vehicleNotFound: pair('车辆不存在或不在您的管辖范围内', 'The vehicle does not exist or is outside your companies'),
  deviceOffline: pair('设备不在线', 'The device is offline'),
  deviceNoReply: pair('设备未应答', 'The device did not reply'),
};

/** How a terminal answered (alarm_deal_log.terminal_result), in the caller's language. */
export const TERMINAL_OFFLINE = -1;
export const TERMINAL_NO_REPLY = -2;
/** No terminal message applies (platform alarm, or a type 0x8203 cannot confirm). */
export const TERMINAL_NOT_APPLICABLE = -3;

export function terminalResultText(result: number | null, lang: Lang): string {
  switch (result) {
    case null: return '';
    case 0: return lang === 'zh' ? '终端应答成功' : 'The terminal acknowledged';
    case 1: return lang === 'zh' ? '终端应答失败' : 'The terminal answered: failed';
    case 2: return lang === 'zh' ? '终端应答：消息有误' : 'The terminal answered: bad message';
    case 3: return lang === 'zh' ? '终端应答：不支持' : 'The terminal answered: not supported';
    case TERMINAL_OFFLINE: return lang === 'zh' ? '终端不在线，未能下发' : 'The terminal is offline: nothing could be sent';
    case TERMINAL_NO_REPLY: return lang === 'zh' ? '已下发，终端未应答' : 'Sent, but the terminal did not reply';
    case TERMINAL_NOT_APPLICABLE: return lang === 'zh' ? '该报警无需下发终端' : 'This alarm has nothing to send to the terminal';
    default: return lang === 'zh' ? `终端应答结果 ${result}` : `The terminal answered with result ${result}`;
  }
}
