/**
 * Terminal upgrades (issue 17, hjwsUpdate screens), JT/T 808-2019 §8.56 / §8.57:
 *
 * - 0x8108 issue an upgrade package (下发终端升级包): upgrade type BYTE (0 terminal, 12 IC card reader,
 *   52 GNSS module), manufacturer id BYTE[5], version length BYTE n, version STRING[n], package length
 *   DWORD, package BYTE[...]. A real package is far over the 1023-byte body limit, so the gateway sends
 *   it as sub-packages (codec `encodeFrames`, session `command`); the terminal answers the whole with one
 *   0x0001 for the first package's serial, and reports the outcome later in 0x0108.
 * - 0x0108 upgrade result (终端升级结果通知): type BYTE + result BYTE (0 ok, 1 failed, 2 cancelled);
 *   its codec lives with the transparent family (transparent.ts), re-exported here for one import.
 *
 * Bad bodies throw Jt808Error, so they take the gateway's protocol error path like any other message.
 */
import { Writer, type Reader } from './bytes.ts';
import { Jt808Error } from './errors.ts';

export const UPGRADE_MSG = { ISSUE: 0x8108, RESULT: 0x0108 } as const;
/** Upgrade types of 0x8108 / 0x0108. */
export const UPGRADE_TYPE = { TERMINAL: 0, IC_CARD_READER: 12, GNSS: 52 } as const;
export const UPGRADE_TYPES: readonly number[] = Object.values(UPGRADE_TYPE);
/** Results of 0x0108. */
export const UPGRADE_RESULT = { OK: 0, FAILED: 1, CANCELLED: 2 } as const;
/** Manufacturer id width (BYTE[5]). */
export const UPGRADE_MAKER_WIDTH = 5;

export interface UpgradePackage {
  msgId: 0x8108;
  upgradeType: number;
  makerId: string;
  version: string;
  data: Uint8Array;
}

export function isUpgradeMessage(msgId: number): boolean {
  return msgId === UPGRADE_MSG.ISSUE;
}

export function readUpgradeMessage(msgId: number, r: Reader): UpgradePackage {
  if (msgId !== UPGRADE_MSG.ISSUE) throw new Jt808Error('field', `message 0x${msgId.toString(16)} is not 0x8108`);
  const upgradeType = r.u8('upgrade type');
  const makerId = r.fixedString(UPGRADE_MAKER_WIDTH, 'manufacturer id');
  const n = r.u8('version length');
  const version = r.fixedString(n, 'version');
  const length = r.u32('package length');
  const data = r.bytes(length, 'upgrade package').slice();
  return { msgId: UPGRADE_MSG.ISSUE, upgradeType, makerId, version, data };
}

export function writeUpgradeMessage(w: Writer, msg: UpgradePackage): void {
  const version = new Writer(16).string(msg.version).finish();
  if (version.length > 0xff) throw new Jt808Error('encode', `version: ${version.length} bytes, the field holds 255`);
  w.u8(msg.upgradeType, 'upgrade type')
    .fixedString(msg.makerId, UPGRADE_MAKER_WIDTH, 'manufacturer id')
    .u8(version.length, 'version length')
    .bytes(version)
    .u32(msg.data.length, 'package length')
    .bytes(msg.data);
}
