/* global __ENV */
// The console side of bench/k6/bus.js: where the push node answers, its virtual users, and their sign-in.
import http from 'k6/http';
import { check } from 'k6';

export const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';

/** CLIENTS virtual users, one console each, for `seconds` (plus time to connect and close). */
export function consoles(seconds) {
  return { executor: 'per-vu-iterations', vus: Number(__ENV.CLIENTS || 20), iterations: 1, maxDuration: `${seconds + 30}s` };
}

/** Signs in once (k6 `setup`); every virtual user gets the token. */
export function signIn() {
  const res = http.post(`${BASE}/service-priv/login`, JSON.stringify({
    username: __ENV.USER_NAME || 'admin', password: __ENV.PASSWORD || 'admin123', loginType: 'login',
  }), { headers: { 'content-type': 'application/json' } });
  check(res, { 'signed in': (r) => r.json('code') === 200 });
  return { token: res.json('data.token') };
}
