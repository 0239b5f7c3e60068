#!/usr/bin/env node
/**
 * Start smoke for tools/node22/check.sh: runs `npm start` (console build + server) in the current checkout
 * with a small seeded fleet and checks, as a user would see it, that
 *   1. the console page answers (HTTP 200, the app's HTML),
 *   2. the API answers (admin signs in through /service-priv/login),
 *   3. simulated terminals connected to the JT/T 808 gateway over TCP (vehicleOnline on /monitor/index's
 *      realtimestat reaches SIM_VEHICLES),
 *   4. the server process is the Node that runs this script (on Linux, /proc/<pid>/exe), so a `node`
 *      found elsewhere on PATH cannot pass for Node 22.
 * Every port is 0 (the OS picks one), data goes to a temp dir; the server's process group is stopped at the end.
 * Plain Node (no tsx): it runs before anything is known to work on this Node.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SIM = 5;
const START_TIMEOUT_MS = Number(process.env.SMOKE_START_TIMEOUT_MS ?? 300_000);
const ONLINE_TIMEOUT_MS = 90_000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'node22-smoke-data-'));
const output = [];
const child = spawn('npm', ['start'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    GATEWAY_PORT: '0',
    MEDIA_PORT: '0',
    MEDIA_PLAYBACK_PORT: '0',
    FTP_PORT: '0',
    SEED_VEHICLES: '40',
    SIM_VEHICLES: String(SIM),
    SEED_HISTORY_VEHICLES: '0',
    SEED_HISTORY_DAYS: '0',
    SIM_APP_USERS: '0',
    SIM_DUTY_OPERATOR: '0',
    SIM_ACCIDENT_OFFICER: '0',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
  // Own process group: npm → sh → node; stopping the group stops the server too.
  detached: true,
});
let exited;
child.once('exit', (code, signal) => (exited = signal ?? `code ${code}`));
// Interrupted (CI's time-out, Ctrl-C): the server's group goes too, it is not left listening.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stop();
    process.exit(1);
  });
}
for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk.toString('utf8')));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tail = () => output.join('').trimEnd().split('\n').slice(-40).join('\n');
const ok = (what) => process.stdout.write(`smoke: ok  ${what}\n`);

function stop() {
  if (exited === undefined) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

async function waitFor(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined) throw new Error(`npm start exited (${exited}) while waiting for ${what}`);
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** The pid of a descendant of `pid` whose command line runs server/main.ts (Linux /proc). */
function serverPid(pid) {
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift();
    let cmdline;
    try {
      cmdline = readFileSync(`/proc/${p}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // an argument of its own: `sh -c "npm run build && node … server/main.ts"` has it inside one string
    if (p !== pid && cmdline.split('\0').includes('server/main.ts')) return p;
    try {
      for (const task of readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/)) {
        if (task) queue.push(Number(task));
      }
    } catch {
      // no children file (not Linux): reported by the caller
    }
  }
  return undefined;
}

async function main() {
  const started = Date.now();
  const consoleUrl = await waitFor('"Fleet console:" line from npm start', START_TIMEOUT_MS, async () => {
    const match = /Fleet console: (http:\/\/[^\s]+\/bcmp-web\/)/.exec(output.join(''));
    return match?.[1];
  });
  const origin = new URL(consoleUrl).origin;
  ok(`npm start built the console and listened in ${Math.round((Date.now() - started) / 1000)} s: ${consoleUrl}`);

  const page = await fetch(consoleUrl);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root">')) {
    throw new Error(`console page: HTTP ${page.status}, ${html.length} bytes without the app's root element`);
  }
  ok(`console page answers (HTTP 200, ${html.length} bytes of the app's HTML)`);

  const login = await fetch(`${origin}/service-priv/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-lang': 'en' },
    body: JSON.stringify({ username: 'admin', password: 'admin123', loginType: 'default' }),
  });
  const signedIn = await login.json();
  if (signedIn.code !== 200 || typeof signedIn.data?.token !== 'string') {
    throw new Error(`API login of admin: HTTP ${login.status}, code ${signedIn.code} ${signedIn.msg}`);
  }
  ok('API answers: admin signed in through POST /service-priv/login');

  const online = await waitFor(`${SIM} simulated terminals online at the gateway`, ONLINE_TIMEOUT_MS, async () => {
    const response = await fetch(`${origin}/service-monitor/monitor/realtimestat`, { headers: { 'x-jwt': signedIn.data.token } });
    const answer = await response.json();
    if (answer.code !== 200) throw new Error(`realtimestat: HTTP ${response.status}, code ${answer.code} ${answer.msg}`);
    return answer.data.vehicleOnline >= SIM ? answer.data : undefined;
  });
  ok(`simulated terminals connected over JT/T 808: vehicleOnline ${online.vehicleOnline} of ${online.vehicleTotal}`);

  if (process.platform === 'linux') {
    const pid = serverPid(child.pid);
    if (pid === undefined) throw new Error('could not find the server process (server/main.ts) under npm start');
    const exe = realpathSync(readlinkSync(`/proc/${pid}/exe`));
    if (exe !== realpathSync(process.execPath)) {
      throw new Error(`the server runs on ${exe}, not on ${process.execPath} (${process.version}): PATH picks another node`);
    }
    ok(`the server process ${pid} runs on ${exe} (${process.version})`);
  }
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  process.stderr.write(`smoke: FAILED: ${error instanceof Error ? error.message : String(error)}\n--- npm start output (last lines) ---\n${tail()}\n`);
} finally {
  stop();
  const deadline = Date.now() + 10_000;
  while (exited === undefined && Date.now() < deadline) await sleep(100);
  if (exited === undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
