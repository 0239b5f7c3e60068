/** The simulated terminal's 0x8108 handling (sim/upgrade.ts): acknowledge, install its own maker's package, refuse another's. */
import { describe, expect, it } from 'vitest';
import type { Jt808MessageInput } from '../gateway/jt808/index.ts';
import { simFirmwareVersion, simUpgrade } from './upgrade.ts';

function link(makerId = 'SIM01') {
  const sent: Jt808MessageInput[] = [];
  const replies: number[] = [];
  const versions = new Map<number, string>();
  return { sent, replies, versions, makerId, send: (m: Jt808MessageInput) => sent.push(m), reply: (r: number) => replies.push(r) };
}
const now = (fn: () => void) => fn();

describe('simulated terminal upgrade', () => {
  it('acknowledges, installs a package of its manufacturer and reports result 0; 0x0107 shows the new firmware', () => {
    const l = link();
    expect(simFirmwareVersion(l.versions, 'SIM-808-1.0')).toBe('SIM-808-1.0');
    simUpgrade(l, { msgId: 0x8108, upgradeType: 0, makerId: 'SIM01', version: 'V3', data: Uint8Array.of(1, 2, 3) }, now);
    expect(l.replies).toEqual([0]);
    expect(l.sent).toEqual([{ msgId: 0x0108, upgradeType: 0, result: 0 }]);
    expect(simFirmwareVersion(l.versions, 'SIM-808-1.0')).toBe('V3');
  });

  it('a GNSS module package changes the module, not the terminal firmware', () => {
    const l = link();
    simUpgrade(l, { msgId: 0x8108, upgradeType: 52, makerId: 'SIM01', version: 'G2', data: new Uint8Array(1) }, now);
    expect(l.sent).toEqual([{ msgId: 0x0108, upgradeType: 52, result: 0 }]);
    expect(l.versions.get(52)).toBe('G2');
    expect(simFirmwareVersion(l.versions, 'F1')).toBe('F1');
  });

  it('another manufacturer\'s package is answered result 1 and installs nothing', () => {
    const l = link();
    simUpgrade(l, { msgId: 0x8108, upgradeType: 0, makerId: 'OTHER', version: 'V9', data: new Uint8Array(1) }, now);
    expect(l.replies).toEqual([0]);
    expect(l.sent).toEqual([{ msgId: 0x0108, upgradeType: 0, result: 1 }]);
    expect(l.versions.size).toBe(0);
  });
});
