/**
 * Node runner of the alarm storm against a running server on this machine (the bench builds its own:
 * bench/alarm-storm.bench.ts). Signs in, takes `--vehicles` seeded vehicles' terminal numbers, signs
 * their terminals in over TCP, then raises `--rate` distinct alarms per second for `--seconds`
 * (see alarm-storm-load.ts for why none merges) while one console connection decodes the pushes
 * (both in this process: for clean latency figures use the bench, which gives each its own process).
 *
 *   node --import tsx bench/load/alarm-storm.ts --url http://127.0.0.1:8080 --gateway-port 7611
 *        [--rate 5000] [--seconds 60] [--user admin --password admin123]
 *
 * The reports carry the current GPS time, so run it on vehicles no simulator drives, and at most once
 * per 30 minutes on the same vehicles (a repeat inside the window merges and is not pushed).
 */
import { args, assertLoopback, intArg, login, percentile } from './common.ts';
import { matchStorm, STEPS, StormConsumer, StormSender } from './alarm-storm-load.ts';

const a = args();
const url = a.get('url') ?? 'http://127.0.0.1:8080';
assertLoopback(url);
const gatewayPort = intArg(a, 'gateway-port', 7611, 1, 65535);
const rate = intArg(a, 'rate', 5000, 1, 50_000);
const seconds = intArg(a, 'seconds', 60, 1, 600);
const token = await login(url, a.get('user') ?? 'admin', a.get('password') ?? 'admin123');

const wanted = Math.ceil((rate * seconds) / STEPS.length);
const devices: string[] = [];
for (let current = 1; devices.length < wanted; current++) {
  const res = await fetch(`${url}/service-monitor/monitor/v3/selectreal`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-jwt': token }, body: JSON.stringify({ current, size: 500, state: 'neverOnline' }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { records: { deviceNo: string }[] } };
  if (body.code !== 200) throw new Error(`selectreal: ${body.code} ${body.msg}`);
  if (body.data.records.length === 0) break;
  for (const r of body.data.records) devices.push(r.deviceNo);
}
if (devices.length < wanted) throw new Error(`${wanted} never-online vehicles needed for ${rate}/s × ${seconds} s, ${devices.length} found (seed more)`);

const consumer = new StormConsumer();
await consumer.connect(`${url.replace(/^http/, 'ws')}/ws-service/websocket`, token);
const sender = new StormSender();
const ready = await sender.connect({ cmd: 'connect', gatewayPort, devices: devices.slice(0, wanted) });
process.stdout.write(`${wanted - ready.failed} terminals signed in in ${(ready.loginMs / 1000).toFixed(1)} s (${ready.failed} failed)\n`);
const gpsBase = Math.floor(Date.now() / 1000) * 1000;
await sender.reset(gpsBase);
consumer.take();
const sent = await sender.phase({ cmd: 'phase', rate, seconds, gpsBase });
// Drain: until everything arrived, or nothing new for 10 s.
for (let last = -1, quietSince = performance.now(); consumer.count < sent.sent && performance.now() - quietSince < 10_000;) {
  await new Promise((r) => setTimeout(r, 200));
  if (consumer.count !== last) {
    last = consumer.count;
    quietSince = performance.now();
  }
}
const r = matchStorm(sent, consumer.take());
sender.close();
consumer.close();
const lat = r.latencies.sort((x, y) => x - y);
process.stdout.write([
  `alarms sent                  ${r.sent} (${(r.sent / r.sendSeconds).toFixed(0)}/s)`,
  `reports acknowledged         ${r.acked}`,
  `distinct alarms delivered    ${r.delivered} (lost ${r.sent - r.delivered}, duplicates ${r.duplicates}, strays ${r.unexpected})`,
  `frame → decoded push         p50 ${percentile(lat, 50).toFixed(1)} ms, p95 ${percentile(lat, 95).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms`,
  `decode errors                ${r.decodeErrors}${r.closedWith === null ? '' : `; the server closed the console with ${r.closedWith}`}`,
].join('\n') + '\n');
process.exit(0);
