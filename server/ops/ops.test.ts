/**
 * Health and metrics over a real server (HTTP + JT/T 808 gateway on free ports): a TCP terminal
 * registers and reports, and /metrics shows it; readiness follows the parts it names.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { PUSH_TICK_STALE_MS } from './health.ts';

/** The value of one sample line (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('health and metrics of a running server', () => {
  let server: LiveTestServer;
  let url: string;
  const scrape = async () => {
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  beforeAll(async () => {
    server = await startLiveServer();
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => server?.close());

  it('answers liveness and readiness with up/down only, nothing else about the server', async () => {
    const live = await fetch(`${url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'up', gateway: 'up', push: 'up' }, leader: true });
  });

  it('the embedded database\'s single node is always the leader: every job runs here (issue 20)', async () => {
    expect(server.app.leadership).toMatchObject({ isLeader: true, shared: false });
    expect(server.app.sweepLeadership).toMatchObject({ isLeader: true, shared: false });
    expect(sample(await scrape(), 'fleet_leader')).toBe(1);
  });

  it('counts a real terminal: 1 connected, reports up by exactly N, history rows written and flushes timed', async () => {
    const before = await scrape();
    const reports0 = sample(before, 'fleet_gateway_reports_total') ?? 0;
    const rows0 = sample(before, 'fleet_history_rows_written_total') ?? 0;
    expect(sample(before, 'fleet_gateway_terminals_connected')).toBe(0);

    const [vehicle] = await server.app.storage.terminals.allVehicles();
    const terminal = await TestTerminal.connect(server.gatewayPort, vehicle!.deviceNo);
    try {
      await terminal.login();
      const N = 7;
      const t0 = Math.floor(server.clock.now() / 1000) * 1000 - 60_000;
      for (let i = 0; i < N; i++) {
        const ack = await terminal.report(location({ lng: 121.4 + i / 1000, lat: 31.2, time: t0 + i * 1000, speed: 30 }));
        expect(ack.result).toBe(0);
      }
      await server.app.live.history.flush();
      const after = await scrape();
      expect(sample(after, 'fleet_gateway_terminals_connected')).toBe(1);
      expect(sample(after, 'fleet_gateway_connections_open')).toBe(1);
      expect(sample(after, 'fleet_gateway_reports_total')! - reports0).toBe(N);
      expect(sample(after, 'fleet_history_rows_written_total')! - rows0).toBe(N);
      expect(sample(after, 'fleet_history_queue_depth')).toBe(0);
      expect(sample(after, 'fleet_history_flush_duration_seconds_count')).toBeGreaterThanOrEqual(1);
      // Process metrics of prom-client's standard set are there too (the dashboard's CPU and memory panels).
      expect(after).toMatch(/^process_cpu_seconds_total \d/m);
      expect(after).toMatch(/^process_resident_memory_bytes \d/m);
    } finally {
      await terminal.close();
    }
    const gone = await until(scrape, (t) => sample(t, 'fleet_gateway_terminals_connected') === 0);
    expect(sample(gone, 'fleet_gateway_terminals_connected')).toBe(0);
  });

  it('shows the WAL checkpoints the worker thread runs (off the event loop) and the log they leave', async () => {
    // The reports above were committed; the worker checkpoints once a second.
    const t = await until(scrape, (text) => (sample(text, 'fleet_sqlite_checkpoints_total') ?? 0) >= 1, 5_000);
    expect(sample(t, 'fleet_sqlite_checkpoints_total')).toBeGreaterThanOrEqual(1);
    expect(sample(t, 'fleet_sqlite_checkpoint_seconds_total')).toBeGreaterThan(0);
    expect(sample(t, 'fleet_sqlite_wal_frames')).toBeGreaterThanOrEqual(0);
  });

  it('counts push consumers and the bytes sent to them', async () => {
    const admin = await server.login('admin', 'admin123');
    const before = await scrape();
    const bytes0 = sample(before, 'fleet_push_bytes_sent_total') ?? 0;
    const { default: WebSocket } = await import('ws');
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws-service/websocket?token=${admin}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    try {
      const open = await scrape();
      expect(sample(open, 'fleet_push_consumers')).toBe(1);
      expect(sample(open, 'fleet_push_bytes_sent_total')! - bytes0).toBeGreaterThan(0);
    } finally {
      ws.close();
    }
    const closed = await until(scrape, (t) => sample(t, 'fleet_push_consumers') === 0);
    expect(sample(closed, 'fleet_push_consumers')).toBe(0);
  });

  it('counts each new alarm by type and risk level, from a terminal\'s report to the alarm service', async () => {
    const vehicles = await server.app.storage.terminals.allVehicles();
    const terminal = await TestTerminal.connect(server.gatewayPort, vehicles[1]!.deviceNo);
    try {
      await terminal.login();
      // Alarm bit 0 (the SOS switch) is the emergency alarm 17001, risk level high (domain/alarms/sources.ts).
      const ack = await terminal.report(location({ lng: 121.5, lat: 31.2, time: Math.floor(server.clock.now() / 1000) * 1000, alarm: 1, speed: 20 }));
      expect(ack.result).toBe(0);
      const series = 'fleet_alarms_raised_total{type="17001",level="high"}';
      const text = await until(scrape, (t) => sample(t, series) !== undefined);
      expect(sample(text, series)).toBe(1);
      expect(server.app.alarms.stats.raised).toBe(1);
    } finally {
      await terminal.close();
    }
  });

  it('labels HTTP timings by the route pattern, never by the raw URL with its ids', async () => {
    const admin = await server.login('admin', 'admin123');
    for (const id of [424_242, 535_353]) {
      const res = await fetch(`${url}/service-priv/line/${id}`, { headers: { 'x-jwt': admin } });
      expect(res.status).toBe(404);
    }
    await fetch(`${url}/no-such-path/${'x'.repeat(20)}`);
    const text = await scrape();
    expect(sample(text, 'fleet_http_request_duration_seconds_count{method="GET",route="/service-priv/line/:id",status="404"}')).toBe(2);
    expect(text).not.toContain('424242');
    expect(text).not.toContain('535353');
    // Unmatched paths share one series, whatever a scanner tries.
    expect(text).toMatch(/fleet_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).not.toContain('xxxxxxxxxxxxxxxxxxxx');
  });

  it('serves every metric the Grafana dashboard queries (deploy/grafana/fleet-console.json)', async () => {
    const dashboard = JSON.parse(readFileSync(new URL('../../deploy/grafana/fleet-console.json', import.meta.url), 'utf8')) as {
      panels: { type: string; targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
    expect(exprs.length).toBeGreaterThan(15);
    const text = await scrape();
    const types = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    const missing = new Set<string>();
    for (const expr of exprs) {
      for (const [name] of expr.matchAll(/\b(?:fleet|process|nodejs)_[a-z0-9_]+/g)) {
        const base = name.replace(/_(bucket|count|sum)$/, '');
        if (!types.has(name) && !types.has(base)) missing.add(name);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('turns not ready (503, naming the gateway) once the gateway stops, and stays live', async () => {
    await server.app.live.gateway.stop();
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', checks: { database: 'up', gateway: 'down', push: 'up' }, leader: true });
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
  });
});

describe('readiness of the push hub', () => {
  it('answers 503 naming push when the hub stops completing ticks although its timer is still set', { timeout: 30_000 }, async () => {
    const server = await startLiveServer();
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const url = `http://127.0.0.1:${address.port}`;
    const hub = server.app.push;
    const tick = hub.tick;
    try {
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
      // A tick that never gets through its work (as one throwing every time would): the interval stays set.
      hub.tick = () => undefined;
      expect(hub.running).toBe(true);
      await new Promise((r) => setTimeout(r, PUSH_TICK_STALE_MS + 300));
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', checks: { database: 'up', gateway: 'up', push: 'down' }, leader: true });
      // Ticking again: ready within a tick or two.
      hub.tick = tick;
      const again = await until(() => fetch(`${url}/health/ready`).then((r) => r.status), (s) => s === 200, 2000);
      expect(again).toBe(200);
    } finally {
      hub.tick = tick;
      await server.close();
    }
  });
});

describe('readiness without a database', () => {
  it('answers 503 naming the database once its connection is closed', async () => {
    const server = await startLiveServer();
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const url = `http://127.0.0.1:${address.port}`;
    try {
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
      (server.app.storage as SqliteStorage).db.close();
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(503);
      const body = await ready.json();
      expect(body).toEqual({ status: 'unavailable', checks: { database: 'down', gateway: 'up', push: 'up' }, leader: true });
      // The cause stays in the server's log: the public answer holds no error text.
      expect(JSON.stringify(body)).not.toMatch(/connection|sqlite|open/i);
    } finally {
      // Shutdown hooks that write (history, OBD readings) fail on the closed connection: that is this test's doing.
      await server.close().catch(() => undefined);
    }
  });
});
