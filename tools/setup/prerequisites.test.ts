import { describe, expect, it } from 'vitest';
import { decideSetup, installCommands, type Machine } from './prerequisites.mjs';

const fresh: Machine = { chromium: false, cjkFont: false, isRoot: false, passwordlessSudo: false, aptGet: true };

describe('what npm test does about Chromium and the CJK font before running anything', () => {
  it('runs when both are present, whoever the user is', () => {
    expect(decideSetup({ ...fresh, chromium: true, cjkFont: true })).toEqual({ kind: 'ready' });
    expect(decideSetup({ ...fresh, chromium: true, cjkFont: true, aptGet: false })).toEqual({ kind: 'ready' });
  });

  it('installs both Debian packages as root on a fresh machine, apt-get update first, non-interactive flags', () => {
    const d = decideSetup({ ...fresh, isRoot: true });
    expect(d).toEqual({ kind: 'install', packages: ['chromium', 'fonts-noto-cjk'], sudo: false });
    if (d.kind !== 'install') throw new Error('not an install');
    expect(installCommands(d)).toEqual([
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium', 'fonts-noto-cjk'],
    ]);
  });

  it('installs through non-interactive sudo when sudo needs no password', () => {
    const d = decideSetup({ ...fresh, chromium: true, passwordlessSudo: true });
    expect(d).toEqual({ kind: 'install', packages: ['fonts-noto-cjk'], sudo: true });
    if (d.kind !== 'install') throw new Error('not an install');
    // `sudo -n` fails instead of waiting for a password on a terminal nobody watches (CI)
    expect(installCommands(d).every((c) => c[0] === 'sudo' && c[1] === '-n')).toBe(true);
  });

  it('stops with the one command to run when the user may not install', () => {
    const d = decideSetup({ ...fresh, cjkFont: true });
    expect(d.kind).toBe('stop');
    if (d.kind !== 'stop') throw new Error('not a stop');
    expect(d.missing).toEqual(['chromium']);
    expect(d.command).toBe('sudo apt-get update && sudo apt-get install -y chromium');
    expect(d.message).toContain(d.command);
  });

  it('stops without an apt command on a system that has no apt-get, even as root', () => {
    const d = decideSetup({ ...fresh, isRoot: true, aptGet: false });
    expect(d.kind).toBe('stop');
    if (d.kind !== 'stop') throw new Error('not a stop');
    expect(d.command).toBeUndefined();
    expect(d.message).toMatch(/CHROMIUM_PATH/);
  });

  it('never replaces a CHROMIUM_PATH that names no executable with an installed package', () => {
    const d = decideSetup({ ...fresh, isRoot: true, cjkFont: true, chromiumPath: '/opt/none/chrome' });
    expect(d.kind).toBe('stop');
    if (d.kind !== 'stop') throw new Error('not a stop');
    expect(d.message).toContain('CHROMIUM_PATH=/opt/none/chrome');
  });

  it('uses a working CHROMIUM_PATH and installs only the missing font', () => {
    expect(decideSetup({ ...fresh, isRoot: true, chromium: true, chromiumPath: '/opt/chrome/chrome' })).toEqual({ kind: 'install', packages: ['fonts-noto-cjk'], sudo: false });
  });
});
