/**
 * Shared bits of the Node load runners (bench/load/*.ts): argument parsing, the loopback guard and
 * sign-in. The runners only ever talk to this machine and stop after a bounded count and time. Also the
 * benches' handling of their load children (IPC messages, frame → decoded latency).
 */
import type { ChildProcess } from 'node:child_process';

export function args(argv: readonly string[] = process.argv.slice(2)): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out.set(a.slice(2), next);
      i++;
    } else out.set(a.slice(2), 'true');
  }
  return out;
}

/** A bounded integer option. */
export function intArg(a: Map<string, string>, name: string, fallback: number, min: number, max: number): number {
  const raw = a.get(name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in [${min}, ${max}]`);
  return n;
}

/** Load is generated against this machine only. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new Error(`load runners only target loopback, not ${host}`);
}

export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/service-priv/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password, loginType: 'login' }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 200) throw new Error(`login of ${username} failed: ${body.code} ${body.msg}`);
  return body.data.token;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Wall clock with sub-millisecond resolution, comparable across processes on one machine. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

/** A load child's IPC message: `type`, and `message` on an 'error'. */
export interface LoadChildMessage {
  type: string;
  message?: string;
}

/** The load child's next message of `type`; rejects on an 'error' message from it, or when it exits first. */
export function nextMessage<T extends LoadChildMessage>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`child exited with ${code} before '${type}'`));
    const onMessage = (m: T) => {
      if (m.type === 'error') reject(new Error(m.message));
      else if (m.type === type) {
        proc.off('message', onMessage);
        proc.off('exit', onExit);
        resolve(m);
      }
    };
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

/**
 * Frame → decoded latencies (ms, sorted) of the sampled positions: the terminals' [vehicle id, GPS second,
 * written at] (load/fanout-terminals.ts) matched with the consoles' [vehicle id, GPS second, decoded at]
 * (load/push-clients.ts); `baseSec` is the terminals' GPS second of round 0.
 */
export function frameToDecoded(sentAt: readonly [number, number, number][], decoded: readonly [number, number, number][], baseSec: number): number[] {
  const written = new Map<number, number>();
  for (const [id, gpsSec, at] of sentAt) written.set(id * 1e6 + (gpsSec - baseSec), at);
  const latencies: number[] = [];
  for (const [id, gpsSec, decodedAt] of decoded) {
    const at = written.get(id * 1e6 + (gpsSec - baseSec));
    if (at !== undefined) latencies.push(decodedAt - at);
  }
  return latencies.sort((a, b) => a - b);
}
