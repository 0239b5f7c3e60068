/**
 * Issue 20 scale-out, a snapshot asked on an API node for a terminal on a gateway node: `server/main.ts`
 * processes on one PostgreSQL database and one NATS server (`nats-server -js`, started here), both nodes
 * with their own DATA_DIR and one shared MEDIA_DIR (the shared mount of a cluster). Node A runs only the
 * gateway (ROLES=gateway), node B only the API and push (ROLES=api,push). A console on B calls the real
 * snapshot (`/service-command/command/snapMedia`); the 0x8801 reaches the terminal on A over the bus, the
 * terminal (the simulator's camera, server/test/camera-terminal.ts: the committed fixture JPEGs) answers
 * 0x0805 and uploads each photo as sub-packaged 0x0801 to A. A stores them (row in PostgreSQL, file in MEDIA_DIR) and tells the other
 * nodes on FLEET_EVT; B's snapshot answers the photos, and B serves each file byte for byte. A stored photo
 * uploaded at B's request (0x8805) is attributed to B's user, as on one node.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestTerminal } from '../gateway/terminal-client.ts';
import type { CrashServer } from '../ops/crash-harness.ts';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { pgSkipReason } from '../db/pg/test-db.ts';
import { storedPhotos } from '../sim/camera.ts';
import { actAsCamera } from '../test/camera-terminal.ts';
import { natsSkipReason } from './test-nats.ts';
import { adminToken, api, seeded, startTestNodes, until, type TestNodes } from './test-nodes.ts';

const skip = pgSkipReason() || natsSkipReason();
if (skip) console.warn(`two-node-snapshot.pgtest: skipped: ${skip}`);

interface SnapView { id: number; vehicleId: number; channel: number; deviceMediaId: number; size: number; source: string; requestedBy: number | null; url: string }
interface SnapAnswer { items: SnapView[]; channels: { channel: number; ok: boolean; count?: number; message?: string }[] }

/** Every file under `dir`, relative paths. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe.skipIf(skip !== '')('a snapshot asked on an API node for a terminal on a gateway node, over NATS and a shared MEDIA_DIR', () => {
  let cluster: TestNodes;
  let nodeA: CrashServer;
  let nodeB: CrashServer;
  let mediaDir: string;
  let vehicle: { id: number; deviceNo: string };
  let terminal: TestTerminal;
  let stopCamera: () => void = () => undefined;
  const sent = new Map<number, Uint8Array>();
  let token: string;
  let adminId: number;

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(tmpdir(), 'fleet-shared-media-'));
    cluster = await startTestNodes(['gateway', 'api,push'], { SEED_VEHICLES: '5', MEDIA_DIR: mediaDir });
    [nodeA, nodeB] = cluster.nodes as [CrashServer, CrashServer];
    ({ vehicle, adminId } = seeded(cluster.db.url));
    token = await adminToken(nodeB.apiUrl);
    terminal = await TestTerminal.connect(nodeA.gatewayPort, vehicle.deviceNo);
    await terminal.login();
    // A camera answers 0x8801 with 0x0805, not with a 0x0001.
    terminal.commandResult = null;
    stopCamera = actAsCamera(terminal, sent);
  }, 600_000);

  afterAll(async () => {
    stopCamera();
    await terminal?.close().catch(() => undefined);
    await cluster?.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('B holds no terminal, yet shows the terminal on A online', { timeout: 30_000 }, async () => {
    expect(nodeB.gatewayPort).toBe(0);
    await until(async () => (await api<{ online: boolean }>(nodeB.apiUrl, 'GET', `/service-priv/vehicle/device?id=${vehicle.id}`, undefined, token)).data.online, 10_000, 'the vehicle online on B');
  });

  it('a snapshot of two channels from a console on B answers the photos the terminal on A uploaded, each downloadable from B byte for byte', { timeout: 60_000 }, async () => {
    const started = Date.now();
    const answer = await api<SnapAnswer>(nodeB.apiUrl, 'POST', '/service-command/command/snapMedia', { vehicleId: vehicle.id, channels: [1, 2], count: 2 }, token);
    const tookMs = Date.now() - started;
    expect(answer.msg).toBe('Success');
    expect(answer.status).toBe(200);
    expect(answer.data.channels).toEqual([{ channel: 1, ok: true, count: 2 }, { channel: 2, ok: true, count: 2 }]);
    expect(answer.data.items).toHaveLength(4);
    for (const item of answer.data.items) {
      expect(item).toMatchObject({ vehicleId: vehicle.id, source: 'snap', requestedBy: adminId });
      const photo = sent.get(item.deviceMediaId);
      expect(photo, `photo ${item.deviceMediaId} was sent by the terminal`).toBeDefined();
      expect(item.size).toBe(photo!.length);
      const r = await fetch(new URL(item.url, nodeB.apiUrl), { headers: { 'x-jwt': token } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(photo!))).toBe(true);
    }
    // The files are in the shared MEDIA_DIR, none in either node's own DATA_DIR.
    expect(filesUnder(path.join(mediaDir, 'photos'))).toHaveLength(4);
    expect(filesUnder(path.join(cluster.dirs[0]!, 'media'))).toEqual([]);
    expect(filesUnder(path.join(cluster.dirs[1]!, 'media'))).toEqual([]);
    // Attributed as a single node does: a snapshot by the user who asked.
    const db = new PgSyncDb(cluster.db.url);
    try {
      const rows = db.prepare('SELECT source, requested_by AS "requestedBy" FROM media_item WHERE vehicle_id = ? ORDER BY id').all(vehicle.id) as { source: string; requestedBy: number | null }[];
      expect(rows).toEqual(Array.from({ length: 4 }, () => ({ source: 'snap', requestedBy: adminId })));
    } finally {
      db.close();
    }
    console.info(`two-node-snapshot: snapshot B → A → terminal → photos stored on A → B answered in ${tookMs} ms`);
  });

  it('a stored photo uploaded at the request of a console on B (0x8805) is kept as that user\'s upload, as on one node, and served by B', { timeout: 60_000 }, async () => {
    const now = Date.now();
    const stored = storedPhotos(2, now - 3_600_000, now, now).at(-1)!;
    const answer = await api<{ results: { mediaId: number; result: number | string }[] }>(nodeB.apiUrl, 'POST', '/service-command/command/uploadDeviceMediaByMediaId', { vehicleId: vehicle.id, mediaIds: [stored.id] }, token);
    expect(answer.status).toBe(200);
    expect(answer.data.results).toEqual([{ mediaId: stored.id, result: 0, resultText: expect.any(String) }]);
    const item = await until(async () => {
      const r = await api<{ items: SnapView[] }>(nodeB.apiUrl, 'POST', '/service-command/command/uploadDeviceMediaByMediaIdResult', { vehicleId: vehicle.id, mediaIds: [stored.id] }, token);
      const found = r.data.items[0];
      return found?.source === 'upload' ? found : undefined;
    }, 10_000, 'the uploaded photo attributed as an upload on B');
    expect(item).toMatchObject({ vehicleId: vehicle.id, channel: 2, deviceMediaId: stored.id, requestedBy: adminId });
    const r = await fetch(new URL(item.url, nodeB.apiUrl), { headers: { 'x-jwt': token } });
    expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(sent.get(stored.id)!))).toBe(true);
  });
});
