/* global __ENV */
// k6 scenario of the monitor REST calls (the same as bench/load/rest.ts):
//   k6 run -e BASE_URL=http://127.0.0.1:8080 -e USERS=10 -e SECONDS=30 bench/k6/rest.js
import http from 'k6/http';
import { check } from 'k6';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';

export const options = {
  vus: Number(__ENV.USERS || 10),
  duration: `${Number(__ENV.SECONDS || 30)}s`,
  thresholds: { http_req_failed: ['rate<0.01'], 'http_req_duration{call:realtimestat}': ['p(99)<250'] },
};

export function setup() {
  const res = http.post(`${BASE}/service-priv/login`, JSON.stringify({
    username: __ENV.USER_NAME || 'admin', password: __ENV.PASSWORD || 'admin123', loginType: 'login',
  }), { headers: { 'content-type': 'application/json' } });
  check(res, { 'signed in': (r) => r.json('code') === 200 });
  return { token: res.json('data.token') };
}

export default function (data) {
  const headers = { 'x-jwt': data.token, 'content-type': 'application/json' };
  const ok = (r) => r.status === 200 && r.json('code') === 200;
  check(http.get(`${BASE}/service-monitor/monitor/realtimestat`, { headers, tags: { call: 'realtimestat' } }), { realtimestat: ok });
  check(http.post(`${BASE}/service-monitor/monitor/searchFrameVehicles`, JSON.stringify({ minLng: 115, minLat: 38, maxLng: 118, maxLat: 41 }),
    { headers, tags: { call: 'searchFrameVehicles' } }), { searchFrameVehicles: ok });
  check(http.post(`${BASE}/service-monitor/monitor/v3/selectreal`, JSON.stringify({ state: 'driving', current: 1, size: 50 }),
    { headers, tags: { call: 'selectreal' } }), { selectreal: ok });
}
