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
 *
 * A package the platform sends is held on disk, not in memory: `file` names it and `data` stays empty;
 * `upgradeBodySource` reads the body by offset (the header fields, then the file, asynchronously: a
 * FileHandle read by position, never a synchronous read on the gateway's thread), so the gateway builds
 * each sub-package when it sends it and again when the terminal asks for it (0x0005).
 */
import fs from 'node:fs/promises';
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
  /** The package bytes; empty when `file` holds them. */
  data: Uint8Array;
  /** Platform side only: the package on disk (never encoded by encodeBody, see upgradeBodySource). */
  file?: { readonly path: string; readonly size: number };
  /** Platform side only: JT/T 808 §4.4 retransmission while the terminal does not answer (server/gateway/session.ts). */
  retransmit?: Retransmission;
}

/**
 * JT/T 808 §4.4 message retransmission: the answer timeout T (ms) after the message was sent, and the
 * number N of retransmissions; the timeout after the n-th is T(n+1) = T(n) × (n+1).
 */
export interface Retransmission {
  readonly timeoutMs: number;
  readonly retries: number;
}

/** A message body read by offset (a long platform message sent as sub-packages); asynchronous (a file). */
export interface BodySource {
  readonly length: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** 0x8108's body as a source: the fields before the package in memory, the package read from its file per call. */
export function upgradeBodySource(msg: UpgradePackage & { file: { path: string; size: number } }): BodySource {
  const w = new Writer(64);
  writeUpgradeMessage(w, { ...msg, data: new Uint8Array(0) });
  const head = w.finish().slice(0, -4);
  const prefix = new Writer(head.length + 4).bytes(head).u32(msg.file.size, 'package length').finish();
  const length = prefix.length + msg.file.size;
  return {
    length,
    async read(offset, n) {
      const end = Math.min(length, offset + n);
      const out = new Uint8Array(Math.max(0, end - offset));
      let at = 0;
      if (offset < prefix.length) {
        const part = prefix.subarray(offset, Math.min(prefix.length, end));
        out.set(part, 0);
        at = part.length;
      }
      if (at < out.length) {
        const handle = await fs.open(msg.file.path, 'r');
        try {
          const { bytesRead: got } = await handle.read(out, at, out.length - at, offset + at - prefix.length);
          if (got !== out.length - at) throw new Jt808Error('encode', `upgrade package ${msg.file.path}: ${got} bytes read at ${offset + at - prefix.length}, ${out.length - at} expected (changed on disk?)`);
        } finally {
          await handle.close();
        }
      }
      return out;
    },
  };
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
