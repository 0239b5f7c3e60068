// What `npm test` needs from the machine before it runs anything: a Chromium for the e2e scenes and,
// on Linux, a CJK font (without one every Chinese label renders as boxes, and the e2e checks that
// measure rendered text fail). Plain Node with no dependencies: `.ci/run` calls it before `npm ci`.
import { spawnSync } from 'node:child_process';
import { findChromium } from '../../e2e/chromium.mjs';

/** Debian's package names: what `npm test` installs when it may. */
export const CHROMIUM_PACKAGE = 'chromium';
export const CJK_FONT_PACKAGE = 'fonts-noto-cjk';

/**
 * The decision as a pure function of what the machine has and what the user may do.
 * - `ready`: nothing is missing.
 * - `install`: apt-get exists and the user may use it (root, or passwordless sudo): install the missing packages.
 * - `stop`: say what is missing and the one command that fixes it; run nothing.
 * A CHROMIUM_PATH that does not name an executable is the user's explicit choice: it is never
 * replaced by an installed package.
 *
 * @param {{ chromium: boolean, cjkFont: boolean, chromiumPath?: string, isRoot: boolean, passwordlessSudo: boolean, aptGet: boolean }} m
 * @returns {{ kind: 'ready' } | { kind: 'install', packages: string[], sudo: boolean } | { kind: 'stop', missing: string[], message: string, command?: string }}
 */
export function decideSetup(m) {
  if (m.chromiumPath && !m.chromium) {
    return {
      kind: 'stop',
      missing: [CHROMIUM_PACKAGE],
      message: `CHROMIUM_PATH=${m.chromiumPath} is not an executable file: point it at a Chromium binary, or unset it to use Debian's package.`,
    };
  }
  const packages = [];
  if (!m.chromium) packages.push(CHROMIUM_PACKAGE);
  if (!m.cjkFont) packages.push(CJK_FONT_PACKAGE);
  if (packages.length === 0) return { kind: 'ready' };
  if (m.aptGet && (m.isRoot || m.passwordlessSudo)) return { kind: 'install', packages, sudo: !m.isRoot };
  const what = packages.map((p) => (p === CHROMIUM_PACKAGE ? 'Chromium' : 'a CJK font')).join(' and ');
  if (m.aptGet) {
    const command = `sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`;
    return { kind: 'stop', missing: packages, command, message: `npm test needs ${what} for its browser tests and may not install packages here. Run:\n  ${command}\nthen npm test again.` };
  }
  return {
    kind: 'stop',
    missing: packages,
    message: `npm test needs ${what} for its browser tests. Install Chromium and a CJK font (Noto Sans CJK) with this system's package manager, or set CHROMIUM_PATH to a Chromium binary, then npm test again.`,
  };
}

/** The apt-get invocations of an `install` decision (update first: a fresh image has no package lists). */
export function installCommands(decision) {
  const prefix = decision.sudo ? ['sudo', '-n'] : [];
  return [
    [...prefix, 'apt-get', 'update'],
    [...prefix, 'apt-get', 'install', '-y', '--no-install-recommends', ...decision.packages],
  ];
}

const quiet = { stdio: 'ignore', timeout: 10_000 };

function succeeds(cmd, args) {
  const r = spawnSync(cmd, args, quiet);
  return r.status === 0;
}

/** Whether fontconfig knows a font covering Chinese (what Chromium on Linux uses); elsewhere the system ships one. */
export function hasCjkFont(platform = process.platform) {
  if (platform !== 'linux') return true;
  const r = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return r.stdout.trim().length > 0;
  // no fontconfig tools: ask dpkg whether Debian's package is installed
  const d = spawnSync('dpkg-query', ['-W', '-f=${Status}', CJK_FONT_PACKAGE], { encoding: 'utf8', timeout: 10_000 });
  return d.status === 0 && d.stdout.includes('install ok installed');
}

/** What this machine has and what this user may do. */
export function probeMachine(env = process.env) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return {
    chromium: findChromium(env) !== undefined,
    chromiumPath: env.CHROMIUM_PATH || undefined,
    cjkFont: hasCjkFont(),
    isRoot,
    passwordlessSudo: !isRoot && succeeds('sudo', ['-n', 'true']),
    aptGet: succeeds('apt-get', ['--version']),
  };
}
