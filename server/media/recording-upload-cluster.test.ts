/**
 * Recording uploads in a cluster (issue 20, server/cluster-jobs.md): the one-time FTP credentials of a task live
 * in the receiver of the node that made it. A node starting on a shared database used to fail every unfinished
 * task, the uploads other nodes were receiving included. Now each task names its node, nodes check in
 * (server/ops/presence.ts), and the leader fails only the tasks of nodes gone. The store here is SQLite with the
 * runtime told the database is shared: the statements are the ones PostgreSQL runs through the facade.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { NodePresence, PRESENCE_STALE_MS } from '../ops/presence.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { createRecordingUploadRuntime, type RecordingUploadRuntime } from './recording-upload.ts';

/** Another node's gateway: the app's own gateway already has this node's 0x1206 handler. */
const otherGateway = { handleTerminalMessage: () => undefined, isReachable: () => false } as unknown as Jt808Gateway;

describe('recording uploads on a shared database', () => {
  let server: LiveTestServer;
  const runtimes: RecordingUploadRuntime[] = [];
  beforeAll(async () => {
    server = await startLiveServer({ seedVehicles: 2 });
  });
  afterAll(async () => {
    for (const r of runtimes) await r.close();
    await server.close();
  });

  it('a node starting fails none of the uploads other nodes are receiving; the leader fails those of a node gone once its check-ins stop', async () => {
    const storage = server.app.storage;
    const db = (storage as SqliteStorage).db;
    const clock = { now: Date.now() };
    const t0 = clock.now;
    const receiving = new NodePresence(db, true, () => clock.now);
    receiving.checkIn();
    const killed = new NodePresence(db, true, () => t0 - 60_000); // its last check-in was a minute ago
    killed.checkIn();
    const vehicleId = db.prepare('SELECT min(id) FROM vehicle').pluck().get() as number;
    const task = (node: string) => storage.recordingUploads.create({
      userId: 1, vehicleId, deviceNo: '013800000001', channel: 1, startTime: t0 - 600_000, endTime: t0 - 300_000, alarmFlags: 0n,
      mediaType: 0, streamType: 0, storageType: 0, ftpUser: `rec-${node || 'old'}`, node, createdAt: t0,
    });
    const onReceiving = await task(receiving.id);
    const onKilled = await task(killed.id);
    const beforeNodes = await task(''); // made before tasks named their node
    const state = async (id: number) => (await storage.recordingUploads.get(id))?.state;

    // Another node starts on the shared database (the old code failed every unfinished task here).
    const starting = createRecordingUploadRuntime(server.config, storage, otherGateway, { node: { id: 'new-node', shared: true }, clock: () => clock.now, isLeader: () => true });
    runtimes.push(starting);
    await new Promise((r) => setTimeout(r, 50));
    expect(await Promise.all([onReceiving, onKilled, beforeNodes].map(state))).toEqual(['requested', 'requested', 'requested']);

    // The leader's sweep: the killed node's task and the one no node claims can never finish.
    expect(await starting.recoverOrphans(clock.now)).toEqual([onKilled, beforeNodes]);
    expect(await storage.recordingUploads.get(onKilled)).toMatchObject({ state: 'failed', failReason: 'uploadFailed', finishedAt: clock.now });
    expect(await state(onReceiving)).toBe('requested');

    // The receiving node stops checking in (killed too): past the stale bound its task follows; a clean stop removes the row at once.
    clock.now += PRESENCE_STALE_MS + 1;
    expect(await starting.recoverOrphans(clock.now)).toEqual([onReceiving]);
    const stopping = new NodePresence(db, true, () => clock.now);
    stopping.checkIn();
    const onStopping = await task(stopping.id);
    expect(await starting.recoverOrphans(clock.now)).toEqual([]);
    stopping.stop();
    expect(await starting.recoverOrphans(clock.now)).toEqual([onStopping]);
  });

  it('on its own database (not shared) a start fails what the previous process left unfinished, as before', async () => {
    const storage = server.app.storage;
    const id = await storage.recordingUploads.create({
      userId: 1, vehicleId: (storage as SqliteStorage).db.prepare('SELECT min(id) FROM vehicle').pluck().get() as number, deviceNo: '013800000001', channel: 1,
      startTime: 0, endTime: 1, alarmFlags: 0n, mediaType: 0, streamType: 0, storageType: 0, ftpUser: 'rec-restart', node: 'previous-start', createdAt: Date.now(),
    });
    runtimes.push(createRecordingUploadRuntime(server.config, storage, otherGateway, { node: { id: 'this-start', shared: false } }));
    await new Promise((r) => setTimeout(r, 50));
    expect((await storage.recordingUploads.get(id))?.state).toBe('failed');
  });
});
