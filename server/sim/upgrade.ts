/**
 * A simulated terminal's answer to 0x8108 (issue 17, terminal upgrades), as a real unit behaves: the
 * package arrives as sub-packages (reassembled by terminal.ts), the codec has checked that the declared
 * package length matches the bytes received, the terminal acknowledges the message (0x0001 OK), then
 * "installs" it and reports 0x0108: result 0 when the package is for its manufacturer (its version for
 * that upgrade type becomes the package's, so 0x0107 reports the new firmware), result 1 otherwise.
 *
 * Lost sub-packages (`SubpackageLoss`): like a unit on a poor link, the simulated terminal loses one
 * sub-package of every 0x8108 of 3 or more (never the first or the last; which one follows from the
 * first serial, so a run is deterministic) and, when the last package has come, asks for it with
 * 0x0005 (JT/T 808-2019 §8.6); the gateway sends exactly that one again.
 */
import { RESULT, type Jt808Header, type Jt808MessageInput } from '../gateway/jt808/index.ts';
import { UPGRADE_MSG, UPGRADE_RESULT, UPGRADE_TYPE, type UpgradePackage } from '../gateway/jt808/upgrade.ts';

/** Installing takes a moment on a real unit; kept short so tests and demos see the outcome soon. */
export const SIM_INSTALL_MS = 200;

export interface UpgradeLink {
  /** The manufacturer id the terminal registered with (0x0100), e.g. 'SIM01'. */
  readonly makerId: string;
  /** Installed versions by upgrade type (0 terminal firmware, 12 IC card reader, 52 GNSS module). */
  readonly versions: Map<number, string>;
  send(msg: Jt808MessageInput): void;
  reply(result: number): void;
}

export function simUpgrade(link: UpgradeLink, m: UpgradePackage, schedule: (fn: () => void, ms: number) => void = defaultSchedule): void {
  link.reply(RESULT.OK);
  const mine = m.makerId.trim() === link.makerId.trim();
  schedule(() => {
    if (mine) link.versions.set(m.upgradeType, m.version);
    link.send({ msgId: UPGRADE_MSG.RESULT, upgradeType: m.upgradeType, result: mine ? UPGRADE_RESULT.OK : UPGRADE_RESULT.FAILED });
  }, SIM_INSTALL_MS);
}

/** The terminal firmware version 0x0107 reports: the installed upgrade, else the factory one. */
export function simFirmwareVersion(versions: ReadonlyMap<number, string>, factory: string): string {
  return versions.get(UPGRADE_TYPE.TERMINAL) ?? factory;
}

function defaultSchedule(fn: () => void, ms: number): void {
  setTimeout(fn, ms).unref();
}

/** The deterministic loss of one sub-package per long 0x8108 and the 0x0005 asking for it. */
export class SubpackageLoss {
  /** First serial → the package index lost (kept for the last few messages). */
  private readonly lost = new Map<number, number>();
  private readonly asked = new Set<number>();

  constructor(private readonly enabled = true) {}

  /** 'drop' to lose this package; a 0x0005 to send once this (last) package is kept; null otherwise. */
  onFragment(h: Pick<Jt808Header, 'msgId' | 'serial' | 'packageTotal' | 'packageIndex'>): 'drop' | Jt808MessageInput | null {
    if (!this.enabled || h.msgId !== UPGRADE_MSG.ISSUE || h.packageTotal < 3) return null;
    const first = (h.serial - h.packageIndex + 1) & 0xffff;
    const lose = 2 + (first % (h.packageTotal - 2));
    if (h.packageIndex === lose && !this.lost.has(first)) {
      this.lost.set(first, lose);
      while (this.lost.size > 4) this.lost.delete(this.lost.keys().next().value!);
      return 'drop';
    }
    if (h.packageIndex === h.packageTotal && this.lost.get(first) !== undefined && !this.asked.has(first)) {
      this.asked.add(first);
      if (this.asked.size > 4) this.asked.delete(this.asked.values().next().value!);
      return { msgId: 0x0005, firstSerial: first, packageIds: [this.lost.get(first)!] };
    }
    return null;
  }
}
