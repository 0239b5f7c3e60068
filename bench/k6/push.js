/* global __ENV */
// k6 scenario of the push channel (the same as bench/load/push.ts, for users who have k6):
//   k6 run -e BASE_URL=http://127.0.0.1:8080 -e CLIENTS=20 -e SECONDS=30 bench/k6/push.js
// Each virtual user signs in, opens /ws-service/websocket with its token and counts what it receives.
// Checks: the connection upgrades (101) and the first messages arrive (directory, then a snapshot).
import http from 'k6/http';
import ws from 'k6/ws';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const SECONDS = Number(__ENV.SECONDS || 30);

export const options = {
  scenarios: { consoles: { executor: 'per-vu-iterations', vus: Number(__ENV.CLIENTS || 20), iterations: 1, maxDuration: `${SECONDS + 30}s` } },
};

const bytes = new Counter('push_bytes');
const messages = new Counter('push_messages');
const firstMessage = new Trend('push_first_message_ms', true);

export function setup() {
  const res = http.post(`${BASE}/service-priv/login`, JSON.stringify({
    username: __ENV.USER_NAME || 'admin', password: __ENV.PASSWORD || 'admin123', loginType: 'login',
  }), { headers: { 'content-type': 'application/json' } });
  check(res, { 'signed in': (r) => r.json('code') === 200 });
  return { token: res.json('data.token') };
}

export default function (data) {
  const url = `${BASE.replace(/^http/, 'ws')}/ws-service/websocket?token=${encodeURIComponent(data.token)}`;
  const started = Date.now();
  let first = true;
  const res = ws.connect(url, {}, (socket) => {
    socket.on('binaryMessage', (msg) => {
      if (first) {
        firstMessage.add(Date.now() - started);
        first = false;
      }
      bytes.add(msg.byteLength);
      messages.add(1);
    });
    socket.setTimeout(() => socket.close(), SECONDS * 1000);
  });
  check(res, { 'upgraded (101)': (r) => r && r.status === 101 });
}
