/**
 * Node runner of the REST scenario (same as bench/k6/rest.js): `--users` virtual users each sign in
 * once, then loop over the monitor calls the console makes (realtimestat, a frame query, the driving
 * list) for `--seconds`. Reports requests per second and latency percentiles per call.
 *
 *   node --import tsx bench/load/rest.ts --url http://127.0.0.1:8080 [--users 10] [--seconds 30]
 */
import { args, assertLoopback, intArg, login, percentile } from './common.ts';

const a = args();
const url = a.get('url') ?? 'http://127.0.0.1:8080';
assertLoopback(url);
const users = intArg(a, 'users', 10, 1, 200);
const seconds = intArg(a, 'seconds', 30, 1, 600);
const token = await login(url, a.get('user') ?? 'admin', a.get('password') ?? 'admin123');

const calls: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: 'realtimestat', method: 'GET', path: '/service-monitor/monitor/realtimestat' },
  { name: 'searchFrameVehicles', method: 'POST', path: '/service-monitor/monitor/searchFrameVehicles', body: { minLng: 115, minLat: 38, maxLng: 118, maxLat: 41 } },
  { name: 'v3/selectreal', method: 'POST', path: '/service-monitor/monitor/v3/selectreal', body: { state: 'driving', current: 1, size: 50 } },
];
const latencies = new Map(calls.map((c) => [c.name, [] as number[]]));
const failures = new Map(calls.map((c) => [c.name, 0]));
const end = performance.now() + seconds * 1000;

async function user(): Promise<void> {
  for (let i = 0; performance.now() < end; i++) {
    const c = calls[i % calls.length]!;
    const t0 = performance.now();
    const res = await fetch(url + c.path, {
      method: c.method, headers: { 'x-jwt': token, ...(c.body ? { 'content-type': 'application/json' } : {}) },
      body: c.body ? JSON.stringify(c.body) : undefined,
    });
    const body = (await res.json()) as { code: number };
    latencies.get(c.name)!.push(performance.now() - t0);
    if (body.code !== 200) failures.set(c.name, failures.get(c.name)! + 1);
  }
}

await Promise.all(Array.from({ length: users }, user));
for (const c of calls) {
  const l = latencies.get(c.name)!.sort((x, y) => x - y);
  process.stdout.write(`${c.name.padEnd(22)} ${(l.length / seconds).toFixed(1).padStart(8)} req/s  p50 ${percentile(l, 50).toFixed(1)} ms  p99 ${percentile(l, 99).toFixed(1)} ms  failures ${failures.get(c.name)}\n`);
}
