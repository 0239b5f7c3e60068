// Where Chromium lives, shared by the pre-test check (plain Node) and the e2e harness.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export const CHROMIUM_MISSING = "Chromium not found: run 'apt-get install -y chromium' or set CHROMIUM_PATH";

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * CHROMIUM_PATH when set (and nothing else, so a wrong setting is not silently replaced), else
 * /usr/bin/chromium, else `chromium` on PATH; undefined when none is executable.
 */
export function findChromium(env = process.env) {
  const configured = env.CHROMIUM_PATH;
  if (configured) return isExecutableFile(configured) ? configured : undefined;
  if (isExecutableFile('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'chromium');
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
