/**
 * Terminal → platform messages the communication log shows decoded (issue 17), and the downlink
 * transparent message that asks a terminal for its own log:
 * - 0x8900 downlink transparent data (数据下行透传, JT/T 808-2013 §8.62): type BYTE + data.
 * - 0x0900 uplink transparent data (数据上行透传, §8.63): type BYTE + data.
 * - 0x0701 electronic waybill report (电子运单上报, §8.46): length DWORD + content.
 * - 0x0108 terminal upgrade result (终端升级结果通知, §8.17): upgrade type BYTE (0 terminal,
 *   12 road transport IC card reader, 52 Beidou module) + result BYTE (0 ok, 1 failed, 2 cancelled).
 *
 * The device log exchange (our design; JT/T 808 has no message for it): transparent type
 * `DEVLOG_TYPE` 0xF1, inside the user-defined range 0xF0–0xFF of table "transparent message types".
 * - Request 0x8900 type 0xF1, data = WORD maximum lines wanted (1..1000).
 * - Answer 0x0900 type 0xF1, data = WORD serial of the 0x8900 it answers + the log text (GBK, lines
 *   separated by "\n", oldest first). The serial is exposed as `replySerial`, so the gateway matches
 *   the answer to its request like any other answer message.
 */
import { decodeGbk, type Reader, type Writer } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const TRANSPARENT_MSG = { DOWN: 0x8900, UP: 0x0900, WAYBILL: 0x0701, UPGRADE_RESULT: 0x0108 } as const;
/** Transparent type of the device log request and answer (user-defined range 0xF0–0xFF). */
export const DEVLOG_TYPE = 0xf1;
/** Most log lines one request may ask for. */
export const DEVLOG_MAX_LINES = 1000;

export interface TransparentDown {
  msgId: 0x8900;
  type: number;
  data: Uint8Array;
}

export interface TransparentUp {
  msgId: 0x0900;
  type: number;
  data: Uint8Array;
  /** Only on a device log answer (type 0xF1): the serial of the 0x8900 it answers. */
  replySerial?: number;
}

export interface Waybill {
  msgId: 0x0701;
  content: Uint8Array;
}

export interface UpgradeResult {
  msgId: 0x0108;
  /** 0 terminal, 12 IC card reader, 52 Beidou positioning module. */
  upgradeType: number;
  /** 0 succeeded, 1 failed, 2 cancelled. */
  result: number;
}

export type TransparentMessage = TransparentDown | TransparentUp | Waybill | UpgradeResult;

export function isTransparentMessage(msgId: number): boolean {
  return msgId === TRANSPARENT_MSG.DOWN || msgId === TRANSPARENT_MSG.UP || msgId === TRANSPARENT_MSG.WAYBILL || msgId === TRANSPARENT_MSG.UPGRADE_RESULT;
}

export function readTransparentMessage(msgId: number, r: Reader): TransparentMessage {
  switch (msgId) {
    case TRANSPARENT_MSG.DOWN: {
      const type = r.u8('transparent type');
      return { msgId: TRANSPARENT_MSG.DOWN, type, data: r.bytes(r.remaining, 'transparent data').slice() };
    }
    case TRANSPARENT_MSG.UP: {
      const type = r.u8('transparent type');
      const data = r.bytes(r.remaining, 'transparent data').slice();
      if (type === DEVLOG_TYPE) {
        if (data.length < 2) throw new Jt808Error('truncated', 'device log answer: needs the 2-byte request serial');
        return { msgId: TRANSPARENT_MSG.UP, type, data, replySerial: (data[0]! << 8) | data[1]! };
      }
      return { msgId: TRANSPARENT_MSG.UP, type, data };
    }
    case TRANSPARENT_MSG.WAYBILL: {
      const length = r.u32('waybill length');
      return { msgId: TRANSPARENT_MSG.WAYBILL, content: r.bytes(length, 'waybill content').slice() };
    }
    case TRANSPARENT_MSG.UPGRADE_RESULT:
      return { msgId: TRANSPARENT_MSG.UPGRADE_RESULT, upgradeType: r.u8('upgrade type'), result: r.u8('upgrade result') };
    default:
      throw new Jt808Error('field', `message 0x${msgId.toString(16)} is not a transparent-family message`);
  }
}

export function writeTransparentMessage(w: Writer, msg: TransparentMessage): void {
  switch (msg.msgId) {
    case TRANSPARENT_MSG.DOWN:
    case TRANSPARENT_MSG.UP:
      w.u8(msg.type, 'transparent type').bytes(msg.data);
      return;
    case TRANSPARENT_MSG.WAYBILL:
      w.u32(msg.content.length, 'waybill length').bytes(msg.content);
      return;
    case TRANSPARENT_MSG.UPGRADE_RESULT:
      w.u8(msg.upgradeType, 'upgrade type').u8(msg.result, 'upgrade result');
      return;
  }
}

/** The 0x8900 asking for the last `lines` lines of the terminal's log. */
export function devlogRequest(lines: number): TransparentDown {
  if (!Number.isInteger(lines) || lines < 1 || lines > DEVLOG_MAX_LINES) throw new Jt808Error('encode', `device log lines ${lines} is not 1..${DEVLOG_MAX_LINES}`);
  return { msgId: TRANSPARENT_MSG.DOWN, type: DEVLOG_TYPE, data: Uint8Array.of(lines >> 8, lines & 0xff) };
}

/** Lines asked for by a device log request (its data), or null when it is not one. */
export function devlogLinesWanted(msg: TransparentDown): number | null {
  if (msg.type !== DEVLOG_TYPE || msg.data.length < 2) return null;
  return (msg.data[0]! << 8) | msg.data[1]!;
}

/** The text of a device log answer (after its 2-byte serial). */
export function devlogText(msg: TransparentUp): string {
  return decodeGbk(msg.data, 2, msg.data.length);
}
