/**
 * Runs once before the e2e files: checks for Chromium and builds the console, so every scene runs
 * against the real production bundle the server serves at /bcmp-web/.
 * E2E_SKIP_BUILD=1 reuses an existing dist/console (quick reruns while writing tests). CONSOLE_DIR builds into
 * (and the servers serve) another folder, so that two e2e runs on one checkout do not overwrite each other's bundle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_MISSING, findChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default function setup(): void {
  // `vitest run --project e2e` may be started without the npm script's check.
  if (!findChromium()) throw new Error(CHROMIUM_MISSING);

  const outDir = process.env.CONSOLE_DIR ? path.resolve(process.env.CONSOLE_DIR) : path.join(root, 'dist', 'console');
  const bundle = path.join(outDir, 'index.html');
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(bundle)) return;

  const started = Date.now();
  // Vitest sets NODE_ENV=test and Vite keeps a NODE_ENV it finds: without this the e2e would test React's
  // development build (StrictMode running every effect twice), not what `npm start` serves.
  const build = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (build.status !== 0 || !existsSync(bundle)) {
    const output = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim();
    const reason = build.error ? build.error.message : `exit code ${String(build.status)}`;
    throw new Error(`e2e: the console build failed (${reason}):\n${output}`);
  }
  process.stdout.write(`e2e: console built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
