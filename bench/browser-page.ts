/**
 * What every in-Chromium benchmark needs: build a bench page with Vite into a temp dir, serve it from
 * loopback, and launch headless Chromium with a fresh profile, no background networking, and Mesa's
 * llvmpipe through ANGLE (≈ 4× SwiftShader's WebGL speed on these GPU-less machines).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type BrowserContext, type CDPSession } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-gl=angle',
  '--use-angle=gl-egl',
  '--ignore-gpu-blocklist',
  // Media in a background tab or without a gesture must still play (MSE baseline, audio).
  '--autoplay-policy=no-user-gesture-required',
];
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.wasm': 'application/wasm' };

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

/** Answers a request itself (true) or leaves it to the static files (false): a bench's fake API. */
export type ExtraRoute = (url: URL, res: ServerResponse) => boolean;

export function serve(dir: string, extra?: ExtraRoute): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (extra?.(u, res)) return;
    const rel = decodeURIComponent(u.pathname);
    const file = path.join(dir, rel === '/' ? 'index.html' : rel);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

export interface BenchPage {
  readonly url: string;
  /** Chromium's --user-data-dir: finds the browser's processes in /proc (bench/video/proc-cpu.ts). */
  readonly profile: string;
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Builds `bench/<dir>/index.html` and opens Chromium on it; `close()` removes every temp dir. */
export async function openBenchPage(dir: string, viewport = { width: 1024, height: 640 }, extra?: ExtraRoute): Promise<BenchPage> {
  const out = mkdtempSync(path.join(os.tmpdir(), `${dir}-bench-`));
  const profile = mkdtempSync(path.join(os.tmpdir(), `${dir}-bench-profile-`));
  await build({
    configFile: false,
    root: path.join(ROOT, 'bench', dir),
    base: './',
    publicDir: path.join(ROOT, 'public'),
    logLevel: 'warn',
    worker: { format: 'es' },
    // Console modules read the build-time router variant (vite.config.ts defines it for the app).
    define: { __ROUTER_VARIANT__: JSON.stringify('main') },
    build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  const { server, url } = await serve(out, extra);
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport });
  return {
    url,
    profile,
    context,
    async close() {
      await context.close();
      server.close();
      rmSync(out, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Ends a CDP trace started with `transferMode: 'ReturnAsStream'` and answers its events. */
export async function endTrace<E>(cdp: CDPSession): Promise<E[]> {
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream ?? '')));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const chunk = (await cdp.send('IO.read', { handle: stream })) as { data: string; eof: boolean; base64Encoded?: boolean };
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as { traceEvents?: E[] } | E[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}
