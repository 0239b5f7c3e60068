/* global __ENV */
// k6 scenario of the scale-out bus's console side (issue 20), for users who have k6 and a multi-node set-up
// (gateway node A with ROLES=gateway, push node B with ROLES=api,push, NATS_URL and DATABASE_URL shared):
//   npm run sim -- --vehicles 2000 --rate 1 --port <A's JT/T 808 port> &
//   k6 run -e BASE_URL=http://127.0.0.1:<B's port> -e CLIENTS=20 -e SECONDS=60 bench/k6/bus.js
// k6 speaks no JT/T 808, so the terminals come from the simulator (its made-up numbers need a demo database,
// which accepts unknown terminals). Each virtual user is a console on push node B in JSON format
// (`format=json`) counting the positions of the terminals on gateway A that reach it, and the lag from B
// sending a delta (`serverTime`) to the console parsing it. The Node runner of this scenario is
// bench/bus.bench.ts (`npm run bench -- bus`): it starts NATS, PostgreSQL and both nodes itself and times the
// whole path, from the frame written by the terminal to the decoded position, against a single node.
import ws from 'k6/ws';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { BASE, consoles, signIn } from './bus-session.js';

const SECONDS = Number(__ENV.SECONDS || 60);

export const options = {
  scenarios: { consoles: consoles(SECONDS) },
  // Fails the run when no position from the gateway node reached a console on the push node.
  thresholds: { bus_positions: ['count>0'] },
};

const positions = new Counter('bus_positions');
const deltas = new Counter('bus_deltas');
const malformed = new Counter('bus_messages_malformed');
const lag = new Trend('bus_push_to_console_ms', true);

export const setup = signIn;

export default function (data) {
  const url = `${BASE.replace(/^http/, 'ws')}/ws-service/websocket?format=json&token=${encodeURIComponent(data.token)}`;
  const res = ws.connect(url, {}, (socket) => {
    socket.on('message', (text) => {
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        malformed.add(1);
        return;
      }
      const body = msg.commandBody && msg.commandBody.data;
      if (!body || body.kind !== 'delta' || !Array.isArray(body.vehicles)) return;
      deltas.add(1);
      positions.add(body.vehicles.length);
      if (typeof body.serverTime === 'number') lag.add(Date.now() - body.serverTime);
    });
    socket.setTimeout(() => socket.close(), SECONDS * 1000);
  });
  check(res, { 'upgraded (101)': (r) => r && r.status === 101 });
}
