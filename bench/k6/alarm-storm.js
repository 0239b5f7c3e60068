/* global __ENV */
// k6 scenario of the console side of an alarm storm, for users who have k6:
//   node --import tsx bench/load/alarm-storm.ts --url http://127.0.0.1:8080 --gateway-port 7611 --rate 5000 --seconds 60 &
//   k6 run -e BASE_URL=http://127.0.0.1:8080 -e CLIENTS=20 -e SECONDS=70 bench/k6/alarm-storm.js
// k6 speaks no JT/T 808, so the terminals come from the Node runner; here each virtual user is a console
// on the push channel in JSON format (`format=json`) counting alarm pushes. Latency is from the server
// storing the alarm (`createTime`, server clock, same machine) to the console parsing the message:
// the server → console part of bench/alarm-storm.bench.ts's frame → console figure.
import http from 'k6/http';
import ws from 'k6/ws';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const SECONDS = Number(__ENV.SECONDS || 70);

export const options = {
  scenarios: { consoles: { executor: 'per-vu-iterations', vus: Number(__ENV.CLIENTS || 20), iterations: 1, maxDuration: `${SECONDS + 30}s` } },
  thresholds: { alarm_push_latency_ms: ['p(99)>=0'] },
};

const alarms = new Counter('alarm_pushes');
const badAlarms = new Counter('alarm_pushes_malformed');
const latency = new Trend('alarm_push_latency_ms', true);

export function setup() {
  const res = http.post(`${BASE}/service-priv/login`, JSON.stringify({
    username: __ENV.USER_NAME || 'admin', password: __ENV.PASSWORD || 'admin123', loginType: 'login',
  }), { headers: { 'content-type': 'application/json' } });
  check(res, { 'signed in': (r) => r.json('code') === 200 });
  return { token: res.json('data.token') };
}

export default function (data) {
  const url = `${BASE.replace(/^http/, 'ws')}/ws-service/websocket?format=json&token=${encodeURIComponent(data.token)}`;
  const res = ws.connect(url, {}, (socket) => {
    socket.on('message', (text) => {
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        badAlarms.add(1);
        return;
      }
      if (msg.commandType !== 'alarm') return;
      const alarm = msg.commandBody && msg.commandBody.data;
      if (!alarm || typeof alarm.id !== 'number' || typeof alarm.createTime !== 'number') {
        badAlarms.add(1);
        return;
      }
      alarms.add(1);
      latency.add(Date.now() - alarm.createTime);
    });
    socket.setTimeout(() => socket.close(), SECONDS * 1000);
  });
  check(res, { 'upgraded (101)': (r) => r && r.status === 101 });
}
