/**
 * A closed app is released: nothing process-wide keeps it. prom-client's default metrics (GC and
 * event-loop observers) hold their registry for the life of the process, and the registry's collect
 * callbacks read the app; before the registry was emptied at close, every app built in a process stayed
 * in memory (6–12 MB each: tests, and benches that build a server per phase, grew by that much per app).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function builtAndClosed(dataDir: string): Promise<WeakRef<object>> {
  const app = await buildApp(loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', logLevel: 'silent', seedVehicles: 20,
    consoleDir: path.join(dataDir, 'no-console'),
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A scrape runs the registry's collect callbacks, as Prometheus would.
  await app.inject({ method: 'GET', url: '/metrics' });
  await app.close();
  return new WeakRef(app);
}

it('a closed app is garbage once its last reference is gone (the metrics registry no longer holds it)', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-app-release-'));
  try {
    const ref = await builtAndClosed(dataDir);
    for (let i = 0; i < 20 && ref.deref() !== undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      gc();
    }
    expect(ref.deref()).toBeUndefined();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
