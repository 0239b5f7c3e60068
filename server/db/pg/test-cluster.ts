/**
 * A throwaway PostgreSQL cluster for tests: Debian's binaries, a temp dir, a Unix socket in that dir and a
 * free loopback port (for a second process or a TCP client), fsync off. Started once per test run by the
 * `server-pg` project's global set-up; each test file creates its own database in it.
 *
 * PostgreSQL refuses to run as root, and CI and these machines run as root: the binaries then run as user
 * `postgres` (`runuser`), and the temp dir is handed to that user.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The directory holding initdb and pg_ctl: $PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH. */
export function findPgBin(): string | undefined {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(path.join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(path.join(dir, 'initdb'))) return dir;
  return undefined;
}

/** Why no cluster can start here (undefined when one can), worded for the person reading the test log. */
export function pgUnavailableReason(): string | undefined {
  if (findPgBin()) return undefined;
  return 'PostgreSQL binaries not found (initdb): install Debian\'s postgresql (apt-get install postgresql) or set PG_BIN';
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no user "postgres" to run PostgreSQL as (PostgreSQL refuses root)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A port free on loopback now (the kernel's pick); a lost race shows as a failed start, retried once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  readonly dir: string;
  readonly port: number;
  /** Connection URL of a database of this cluster, over the Unix socket (user `fleet`, trust auth). */
  url(database?: string): string;
  /** The same over TCP on 127.0.0.1 (what another machine's node would use). */
  tcpUrl(database?: string): string;
  stop(): void;
}

export const CLUSTER_USER = 'fleet';

export function socketUrl(dir: string, port: number, database = 'postgres'): string {
  return `postgresql://${CLUSTER_USER}@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
}

/**
 * initdb + pg_ctl start (C collation: the scope queries compare company paths bytewise, db/scope.ts).
 * `durable`: fsync and full-page writes on, commits not waiting for their WAL flush (synchronous_commit
 * off): what embedded SQLite's default (WAL, synchronous NORMAL) keeps, for a benchmark comparing the two
 * (bench/bus.bench.ts). Without it a test cluster skips every sync.
 */
export async function startCluster(options: { durable?: boolean } = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error(pgUnavailableReason());
  const owner = postgresUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const run = (tool: string, args: string[]) => {
    const file = path.join(bin, tool);
    const [cmd, argv]: [string, string[]] = owner ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, timeout: 120_000 }).toString();
  };
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'log');
  try {
    run('initdb', ['-D', data, '-U', CLUSTER_USER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    let port = 0;
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      const opts = [
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`,
        // A test cluster: nothing to keep after a crash, so no syncs.
        `-c fsync=${options.durable ? 'on' : 'off'} -c synchronous_commit=off -c full_page_writes=${options.durable ? 'on' : 'off'} -c max_connections=100`,
      ].join(' ');
      try {
        run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', opts, 'start']);
        break;
      } catch (err) {
        if (attempt >= 1) throw err;
      }
    }
    const stop = () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped (or never started): the directory goes either way.
      }
      rmSync(dir, { recursive: true, force: true });
    };
    return { dir, port, url: (db) => socketUrl(dir, port, db), tcpUrl: (db = 'postgres') => `postgresql://${CLUSTER_USER}@127.0.0.1:${port}/${db}`, stop };
  } catch (err) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    rmSync(dir, { recursive: true, force: true });
    const e = err as { message: string; stderr?: Buffer };
    throw new Error(`could not start a PostgreSQL test cluster: ${e.message}\n${e.stderr?.toString() ?? ''}${tail}`, { cause: err });
  }
}
