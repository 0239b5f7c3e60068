/**
 * MEDIA_DIR (issue 20 scale-out: the directory every node mounts for media files): its validation, its
 * defaults (unset: where the files always were), and a single node started on one: a snapshot's photos and an
 * upgrade package land there and nowhere under DATA_DIR; a MEDIA_DIR that is not there refuses the start.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, mediaDirOf, sharedFilesDirOf, upgradePackagesDirOf } from '../../config.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { actAsCamera } from '../../test/camera-terminal.ts';
import { injectForm } from '../../test/multipart.ts';
import { ScriptedFleet } from '../../test/scripted-fleet.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { checkMediaDir } from './index.ts';

describe('MEDIA_DIR setting', () => {
  it('takes an absolute path (trailing slashes dropped); unset or blank keeps the files where they were; a relative path is refused', () => {
    expect(loadConfig({ DATA_DIR: '/srv/fleet' }).mediaDir).toBeUndefined();
    expect(loadConfig({ DATA_DIR: '/srv/fleet', MEDIA_DIR: '  ' }).mediaDir).toBeUndefined();
    const unset = loadConfig({ DATA_DIR: '/srv/fleet' });
    expect(mediaDirOf(unset)).toBe('/srv/fleet/media');
    expect(upgradePackagesDirOf(unset)).toBe('/srv/fleet/upgrade-packages');
    const set = loadConfig({ DATA_DIR: '/srv/fleet', MEDIA_DIR: '/mnt/fleet-media//' });
    expect(set.mediaDir).toBe('/mnt/fleet-media');
    expect(mediaDirOf(set)).toBe('/mnt/fleet-media');
    expect(upgradePackagesDirOf(set)).toBe('/mnt/fleet-media/upgrade-packages');
    // Every file any node must read: on the shared mount when there is one, where it always was otherwise.
    for (const name of ['exports', 'accident-files', 'audio-resources'] as const) {
      expect(sharedFilesDirOf(set, name)).toBe(`/mnt/fleet-media/${name}`);
      expect(sharedFilesDirOf(unset, name)).toBe(`/srv/fleet/${name}`);
    }
    expect(() => loadConfig({ MEDIA_DIR: 'shared/media' })).toThrow('MEDIA_DIR must be an absolute path (in scale-out every node mounts the shared directory at the same path), got "shared/media"');
  });

  it('a MEDIA_DIR that is missing or not a directory refuses the start (the multimedia routes check it), saying what to do', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fleet-media-dir-'));
    try {
      const advice = 'create it (in scale-out, mount the shared media directory there on every node) and give the server\'s user write access';
      expect(() => checkMediaDir(path.join(dir, 'not-mounted'))).toThrow(`MEDIA_DIR ${path.join(dir, 'not-mounted')} does not exist: ${advice}`);
      writeFileSync(path.join(dir, 'a-file'), '');
      expect(() => checkMediaDir(path.join(dir, 'a-file'))).toThrow(`MEDIA_DIR ${path.join(dir, 'a-file')} is not a directory: ${advice}`);
      expect(() => checkMediaDir(dir)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a node on a MEDIA_DIR', () => {
  let server: LiveTestServer;
  let fleet: ScriptedFleet;
  let mediaDir: string;
  let admin: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(tmpdir(), 'fleet-shared-media-'));
    server = await startLiveServer({ seedVehicles: 5, mediaDir });
    fleet = await ScriptedFleet.open(server);
    admin = await server.login('admin', 'admin123');
  });

  afterAll(async () => {
    await fleet?.close();
    await server?.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('stores a snapshot\'s photos under MEDIA_DIR/photos, serves them from there, and keeps nothing under DATA_DIR/media', async () => {
    const v = fleet.fresh();
    const t = await fleet.terminal(v);
    t.commandResult = null;
    const sent = new Map<number, Uint8Array>();
    const stop = actAsCamera(t, sent);
    try {
      const r = await server.call<{ items: { id: number; deviceMediaId: number; url: string }[] }>('POST', '/service-command/command/snapMedia', { token: admin, body: { vehicleId: v.vehicleId, channels: [1], count: 1 } });
      expect(r.status).toBe(200);
      const [item] = r.data.items;
      const row = await server.app.storage.media.get(ALL_COMPANIES, item!.id);
      expect(readFileSync(path.join(mediaDir, row!.path))).toEqual(Buffer.from(sent.get(item!.deviceMediaId)!));
      const res = await server.app.inject({ method: 'GET', url: item!.url, headers: { 'x-jwt': admin } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(Buffer.from(sent.get(item!.deviceMediaId)!));
      expect(existsSync(path.join(server.config.dataDir, 'media'))).toBe(false);
    } finally {
      stop();
    }
  });

  it('stores an upgrade package under MEDIA_DIR/upgrade-packages (a gateway node sending it reads it there)', async () => {
    const form = new FormData();
    for (const [k, val] of Object.entries({ name: 'fw', version: 'V9', upgradeType: '0', makerId: 'SIM01' })) form.append(k, val);
    form.append('file', new Blob([new Uint8Array(300).fill(7)]), 'fw.bin');
    const answer = await injectForm<{ sha256: string }>(server.app, '/service-command/upgrade/package', form, { token: admin });
    expect(answer.code).toBe(200);
    expect(readdirSync(path.join(mediaDir, 'upgrade-packages'))).toEqual([answer.data.sha256]);
    expect(existsSync(path.join(server.config.dataDir, 'upgrade-packages'))).toBe(false);
  });

  it('stores an audio resource under MEDIA_DIR/audio-resources (any node sends it), nothing under DATA_DIR', async () => {
    const ascii = (t: string) => [...t].map((c) => c.charCodeAt(0));
    const wav = new Uint8Array([...ascii('RIFF'), 36, 0, 0, 0, ...ascii('WAVEfmt '), ...new Array(40).fill(1)]);
    const form = new FormData();
    form.append('name', '到站提示');
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'prompt.wav');
    const answer = await injectForm<{ url: string }>(server.app, '/service-ops/audioManage/add', form, { token: admin });
    expect(answer.code).toBe(200);
    expect(readdirSync(path.join(mediaDir, 'audio-resources'))).toHaveLength(1);
    expect(existsSync(path.join(server.config.dataDir, 'audio-resources'))).toBe(false);
  });

  it('writes an export file under MEDIA_DIR/exports (a download reaching another API node finds it), nothing under DATA_DIR', async () => {
    const v = fleet.fresh();
    const now = server.clock.now();
    await server.app.storage.positions.append(Array.from({ length: 20 }, (_, i) => ({
      vehicleId: v.vehicleId, gpsTime: now - 3_600_000 + i * 60_000, lng: 121.4 + i / 1000, lat: 31.2, speed: 30, heading: 90, altitude: 5,
      status: 3, alarm: 0, mileage: null, fuel: null, receivedAt: now - 3_600_000 + i * 60_000 + 500,
    })));
    const q = `vehicleId=${v.vehicleId}&startTime=${now - 2 * 3_600_000}&endTime=${now}`;
    const started = await server.call<{ taskId: string }>('GET', `/service-monitor/trail/excel?${q}`, { token: admin });
    expect(started.status).toBe(200);
    let status = '';
    for (let i = 0; i < 250 && status !== 'done'; i++) {
      status = (await server.call<{ status: string }>('GET', `/service-monitor/trail/export_status?taskId=${started.data.taskId}`, { token: admin })).data.status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe('done');
    expect(readdirSync(path.join(mediaDir, 'exports'))).toEqual([`${started.data.taskId}.xlsx`]);
    expect(existsSync(path.join(server.config.dataDir, 'exports'))).toBe(false);
  });
});
