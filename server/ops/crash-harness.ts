/**
 * The crash tests' server (issue 20): `server/main.ts` as `npm run dev` starts it, in a child process on
 * a given DATA_DIR with free ports and no simulated actors, so a test can SIGKILL it and start it again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface CrashServer {
  readonly proc: ChildProcess;
  readonly apiUrl: string;
  /** 0 for a node without the gateway role. */
  readonly gatewayPort: number;
}

/**
 * Starts the server on `dataDir`; resolves once it printed its ports. `preload`: modules loaded
 * before main.ts (a fault injected for one run, e.g. crash-slow-alarms.ts). Adds the child to `children`.
 */
export function startCrashServer(dataDir: string, children: Set<ChildProcess>, options: { preload?: readonly string[]; env?: Record<string, string>; startTimeoutMs?: number } = {}): Promise<CrashServer> {
  const preload = (options.preload ?? []).flatMap((p) => ['--import', p]);
  const proc = spawn(process.execPath, ['--import', 'tsx', ...preload, 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn',
      PORT: '0', GATEWAY_PORT: '0', MEDIA_PORT: '0', MEDIA_PLAYBACK_PORT: '0', FTP_PORT: '0', FTP_PASV_PORTS: '0',
      SEED_VEHICLES: '20', SIM_VEHICLES: '0', SIM_APP_USERS: '0', SIM_DUTY_OPERATOR: '0', SIM_ACCIDENT_OFFICER: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let out = '';
  return new Promise((resolve, reject) => {
    // Default 120 s; a node on PostgreSQL (the synchronous bridge) on a loaded machine may need longer.
    const startTimeoutMs = options.startTimeoutMs ?? 120_000;
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${startTimeoutMs / 1000} s:\n${out.slice(-3000)}`)), startTimeoutMs);
    const read = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      // A node without the api role (ROLES, issue 20) prints its HTTP address as health-and-metrics only;
      // one without the gateway role prints no gateway line (gatewayPort 0). "Database:" ends the block.
      const api = /(?:Fleet console|HTTP \(health and metrics only\)): (http:\/\/[^/\s]+)\//.exec(out);
      const gw = /JT\/T 808 gateway: tcp:\/\/[^:\s]+:(\d+)/.exec(out);
      if (api && (gw || /^Database: /m.test(out))) {
        clearTimeout(timer);
        resolve({ proc, apiUrl: api[1]!, gatewayPort: gw ? Number(gw[1]) : 0 });
      }
    };
    proc.stdout!.on('data', read);
    proc.stderr!.on('data', read);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}) before it started:\n${out.slice(-3000)}`));
    });
  });
}

/** SIGKILL, resolved once the process is gone. */
export async function killHard(server: CrashServer): Promise<void> {
  const exited = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill('SIGKILL');
  await exited;
}

/** SIGTERM (a clean stop), resolved once the process is gone. */
export async function stopClean(server: CrashServer): Promise<void> {
  const gone = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill('SIGTERM');
  await gone;
}
