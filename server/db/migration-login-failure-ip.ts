/**
 * Migration 19 (issue 13): the per-address login back-off reads `login_failure` by ip on every sign-in
 * (server/services/priv/session.ts). The only index led with username, so that read scanned the whole
 * window of failures: a password spray from many addresses made every sign-in slower. This index
 * answers it from the index alone (ip, then the time range).
 */
export const LOGIN_FAILURE_IP_MIGRATION = {
  version: 19,
  name: 'login failures by address',
  sql: `
    CREATE INDEX login_failure_ip ON login_failure(ip, at);
  `,
};
