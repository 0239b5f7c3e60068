/**
 * Node runner of the push scenario (same as bench/k6/push.js): signs in, opens `--clients` console
 * connections to a running server on this machine, and reports what each received for `--seconds`.
 *
 *   node --import tsx bench/load/push.ts --url http://127.0.0.1:8080 [--clients 20] [--seconds 30]
 *        [--user admin --password admin123]
 */
import { args, assertLoopback, intArg, login } from './common.ts';
import { PushClients } from './push-clients.ts';

const a = args();
const url = a.get('url') ?? 'http://127.0.0.1:8080';
assertLoopback(url);
const clients = intArg(a, 'clients', 20, 1, 500);
const seconds = intArg(a, 'seconds', 30, 1, 600);
const token = await login(url, a.get('user') ?? 'admin', a.get('password') ?? 'admin123');

const pool = new PushClients({ url: `${url.replace(/^http/, 'ws')}/ws-service/websocket`, token, clients, sampleEvery: 0 });
const t0 = performance.now();
await pool.connect();
process.stdout.write(`${clients} consoles connected and snapshotted in ${Math.round(performance.now() - t0)} ms\n`);
pool.start();
await new Promise((r) => setTimeout(r, seconds * 1000));
const r = pool.stop();
pool.close();
process.stdout.write([
  `seconds                      ${r.seconds.toFixed(1)}`,
  `bytes per client per second  ${Math.round(r.bytes / clients / r.seconds)}`,
  `positions per client per s   ${Math.round(r.positions / clients / r.seconds)}`,
  `messages                     ${r.messages}`,
  `client decode time           ${r.decodeMs.toFixed(0)} ms (${((r.decodeMs / (r.seconds * 1000)) * 100).toFixed(1)} % of a core)`,
  `decode errors                ${r.errors}`,
  `connections closed by server ${r.closed}`,
].join('\n') + '\n');
