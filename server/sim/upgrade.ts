/**
 * A simulated terminal's answer to 0x8108 (issue 17, terminal upgrades), as a real unit behaves: the
 * package arrives as sub-packages (reassembled by terminal.ts), the codec has checked that the declared
 * package length matches the bytes received, the terminal acknowledges the message (0x0001 OK), then
 * "installs" it and reports 0x0108: result 0 when the package is for its manufacturer (its version for
 * that upgrade type becomes the package's, so 0x0107 reports the new firmware), result 1 otherwise.
 */
import { RESULT, type Jt808MessageInput } from '../gateway/jt808/index.ts';
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
