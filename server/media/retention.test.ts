import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COMPANIES } from '../db/scope.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';

const DAY = 86_400_000;
let server: LiveTestServer;
let vehicle: { vehicleId: number; companyId: number; deviceNo: string };

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 5, mediaRetentionDays: 30 });
  const [v] = await server.app.storage.terminals.allVehicles();
  const label = (await server.app.storage.terminals.labels(ALL_COMPANIES, [v!.vehicleId])).get(v!.vehicleId)!;
  vehicle = { vehicleId: v!.vehicleId, companyId: label.companyId, deviceNo: v!.deviceNo };
});

afterAll(async () => {
  await server.close();
});

const mediaDir = () => path.join(server.config.dataDir, 'media');

/** A photo row and its file, received `ageDays` before the server clock (captured at `captureTime`, default the same). */
async function photo(ageDays: number, captureTime?: number): Promise<{ id: number; file: string }> {
  const time = server.clock.now() - ageDays * DAY;
  const rel = path.join('photos', String(vehicle.vehicleId), `p-${ageDays}.jpg`);
  const file = path.join(mediaDir(), rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.alloc(1000));
  const id = await server.app.storage.media.insert({
    vehicleId: vehicle.vehicleId, companyId: vehicle.companyId, deviceMediaId: ageDays, mediaType: 0, format: 0, eventCode: 0, channel: 1,
    captureTime: captureTime ?? time, receivedTime: time, lng: null, lat: null, speed: null, alarmFlags: 0, size: 1000, path: rel, alarmId: null, requestedBy: null, source: 'snap',
  });
  return { id, file };
}

/** An upload task ended `ageDays` ago (or still uploading), with one received file in its directory. */
async function recording(ageDays: number, state: 'done' | 'uploading'): Promise<{ id: number; dir: string }> {
  const time = server.clock.now() - ageDays * DAY;
  const uploads = server.app.storage.recordingUploads;
  const id = await uploads.create({
    userId: 1, vehicleId: vehicle.vehicleId, deviceNo: vehicle.deviceNo, channel: 1, startTime: time - 60_000, endTime: time, alarmFlags: 0n,
    mediaType: 0, streamType: 0, storageType: 0, ftpUser: `u${ageDays}${state}`, createdAt: time,
  });
  await uploads.update(id, state === 'done' ? { state, finishedAt: time } : { state }, time);
  const dir = path.join(mediaDir(), 'recordings', String(id));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'ch1.h264'), Buffer.alloc(5000));
  await uploads.addFile(id, 'ch1.h264', 5000, time);
  return { id, dir };
}

describe('media retention', () => {
  it('deletes photos and finished recordings past the retention days, files and rows, and keeps the rest', async () => {
    const old = await photo(31);
    const recent = await photo(29);
    // A terminal whose clock was reset: captured "in 2000", received today — kept.
    const resetClock = await photo(0, Date.UTC(2000, 0, 1));
    const oldRecording = await recording(40, 'done');
    const recentRecording = await recording(2, 'done');
    const stillUploading = await recording(40, 'uploading');
    // A row whose file is already gone is removed too (nothing left to point at).
    const orphan = await photo(60);
    rmSync(orphan.file);

    const r = await server.app.mediaRetention.sweep();
    expect(r).toEqual({ photos: 2, recordings: 1, photoBytes: 2000, failed: 0 });

    const scope = ALL_COMPANIES;
    expect(await server.app.storage.media.get(scope, old.id)).toBeUndefined();
    expect(existsSync(old.file)).toBe(false);
    expect(await server.app.storage.media.get(scope, orphan.id)).toBeUndefined();
    for (const kept of [recent, resetClock]) {
      expect(await server.app.storage.media.get(scope, kept.id)).toBeDefined();
      expect(existsSync(kept.file)).toBe(true);
    }

    expect(await server.app.storage.recordingUploads.get(oldRecording.id)).toBeUndefined();
    expect(await server.app.storage.recordingUploads.files([oldRecording.id])).toEqual([]);
    expect(existsSync(oldRecording.dir)).toBe(false);
    for (const kept of [recentRecording, stillUploading]) {
      expect(await server.app.storage.recordingUploads.get(kept.id)).toBeDefined();
      expect(existsSync(kept.dir)).toBe(true);
    }
    // Nothing left to do: a second sweep removes nothing.
    expect(await server.app.mediaRetention.sweep()).toEqual({ photos: 0, recordings: 0, photoBytes: 0, failed: 0 });
  });
});
