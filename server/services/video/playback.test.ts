import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PlaybackControlAnswer, PlaybackStatus } from '../../../domain/video/playback.ts';
import { decodeMediaFrame, MEDIA_KIND, type MediaFrame, type MediaStatus } from '../../../proto/media-frame.ts';
import type { LiveTestServer } from '../../live/test-harness.ts';
import { playbackStreamer } from '../../sim/playback.ts';
import { simRecordings } from '../../sim/recordings.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';

let fleet: SimFleet | undefined;
let server: LiveTestServer;
let base: string;
let adminToken: string;
/** Vehicles whose simulated terminals are online, with their device numbers. */
let online: SimFleet['online'];
let offlineVehicle: number;

interface Item {
  channel: number;
  startTime: number;
  endTime: number;
  alarms: number[];
  fileSize: number;
}

/** A playback viewer over the real websocket route. */
class Viewer {
  readonly frames: MediaFrame[] = [];
  readonly statuses: PlaybackStatus[] = [];
  readonly answers: PlaybackControlAnswer[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<number>;
  constructor(path: string) {
    this.ws = new WebSocket(`${base}${path}`);
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) {
        this.frames.push(decodeMediaFrame(new Uint8Array(data as Buffer)));
        return;
      }
      const m = JSON.parse(String(data)) as PlaybackStatus | PlaybackControlAnswer;
      if (m.type === 'status') this.statuses.push(m);
      else this.answers.push(m);
    });
    this.ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
  }
  video(): MediaFrame[] {
    return this.frames.filter((f) => f.kind === MEDIA_KIND.H264);
  }
  states(): string[] {
    return this.statuses.map((s) => (s.reason ? `${s.state}:${s.reason}` : s.state));
  }
  send(control: unknown): void {
    this.ws.send(JSON.stringify(control));
  }
  async answered(action: string): Promise<PlaybackControlAnswer> {
    await until(() => this.answers.some((a) => a.action === action));
    return this.answers.find((a) => a.action === action)!;
  }
  close(): void {
    this.ws.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const playPath = (vehicleId: number, channel: number, startTime: number, endTime: number, token = adminToken) =>
  `/ws-service/playback?token=${token}&vehicleId=${vehicleId}&channel=${channel}&startTime=${startTime}&endTime=${endTime}`;

/** A recording at least 15 minutes long from the simulated terminal's list. */
async function longRecording(vehicleId: number, channel: number): Promise<Item> {
  const now = Date.now();
  const r = await server.call<Item[]>('GET', `/service-command/1078command/resourceList?vehicleId=${vehicleId}&channel=${channel}&startTime=${Math.floor((now - 3 * 86_400_000) / 1000) * 1000}&endTime=${Math.floor(now / 1000) * 1000}`, { token: adminToken });
  expect(r.code).toBe(200);
  const item = r.data.find((i) => i.endTime - i.startTime >= 15 * 60_000);
  expect(item).toBeDefined();
  return item!;
}

beforeAll(async () => {
  fleet = await startSimFleet(20, 7);
  ({ server, adminToken, online, offlineVehicle } = fleet);
  const { port } = server.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${port}`;
});

afterAll(async () => {
  await fleet?.close();
});

describe('recordings on the terminal (0x9205 → 0x1205)', () => {
  it('lists the simulated terminal\'s recordings of the period, the same on every ask', async () => {
    const { vehicleId, deviceNo } = online[0]!;
    const now = Date.now();
    const from = Math.floor((now - 2 * 86_400_000) / 1000) * 1000;
    const to = Math.floor(now / 1000) * 1000;
    const path = `/service-command/1078command/resourceList?vehicleId=${vehicleId}&channel=0&startTime=${from}&endTime=${to}`;
    const a = await server.call<Item[]>('GET', path, { token: adminToken });
    expect(a.code).toBe(200);
    const expected = simRecordings(deviceNo, 0, from, to, now);
    expect(a.data.length).toBe(expected.length);
    expect(a.data.length).toBeGreaterThan(4);
    expect(new Set(a.data.map((i) => i.channel))).toEqual(new Set([1, 2, 3, 4]));
    for (const i of a.data) {
      expect(i.endTime).toBeGreaterThan(i.startTime);
      expect(i.endTime).toBeLessThanOrEqual(now);
      expect(i.endTime - i.startTime).toBeGreaterThanOrEqual(10 * 60_000);
    }
    const b = await server.call<Item[]>('GET', path, { token: adminToken });
    expect(b.data).toEqual(a.data);
    // One channel, alarm-marked only.
    const alarmed = await server.call<Item[]>('GET', `${path.replace('channel=0', 'channel=2')}&alarmOnly=true`, { token: adminToken });
    expect(alarmed.data.every((i) => i.channel === 2 && i.alarms.length > 0)).toBe(true);
    expect(alarmed.data.length).toBe(expected.filter((r) => r.channel === 2 && r.alarmFlags !== 0n).length);
  });

  it('refuses a vehicle that is not online with the spec\'s message, and a bad period', async () => {
    const now = Math.floor(Date.now() / 1000) * 1000;
    const r = await server.call('GET', `/service-command/1078command/resourceList?vehicleId=${offlineVehicle}&channel=1&startTime=${now - 3_600_000}&endTime=${now}`, { token: adminToken });
    expect(r.code).toBe(409);
    expect(r.msg).toBe('车辆不在线，无法播放');
    const en = await server.call('GET', `/service-command/1078command/resourceList?vehicleId=${offlineVehicle}&channel=1&startTime=${now - 3_600_000}&endTime=${now}`, { token: adminToken, lang: 'en' });
    expect(en.msg).toBe('The vehicle is not online, video cannot play');
    const bad = await server.call('GET', `/service-command/1078command/resourceList?vehicleId=${online[0]!.vehicleId}&channel=1&startTime=${now}&endTime=${now - 1000}`, { token: adminToken });
    expect(bad.code).toBe(400);
  });
});

describe('remote playback (0x9201, 0x9202)', () => {
  it('streams the recording from the asked time, pauses, resumes, seeks and fast-forwards; stops the terminal when the viewer leaves', async () => {
    const { vehicleId, deviceNo } = online[0]!;
    const rec = await longRecording(vehicleId, 1);
    const start = rec.startTime + 60_000;
    const v = new Viewer(playPath(vehicleId, 1, start, rec.endTime));
    await until(() => v.video().length >= 20);
    expect(v.states().slice(0, 2)).toEqual(['connecting', 'playing']);
    const first = v.video()[0]!;
    expect(first.key).toBe(true);
    expect(first.timestamp).toBe(start);
    // Recording time advances 40 ms a frame at 1×.
    const ts = v.video().slice(0, 20).map((f) => f.timestamp);
    expect(ts.slice(1).map((t, i) => t - ts[i]!)).toEqual(Array(19).fill(40));

    // Pause: no frames while paused.
    v.send({ type: 'control', action: 'pause' });
    expect((await v.answered('pause')).ok).toBe(true);
    await sleep(300);
    const paused = v.video().length;
    await sleep(600);
    expect(v.video().length).toBe(paused);
    expect(v.states()).toContain('paused');

    // Resume: frames continue where they stopped.
    const last = v.video().at(-1)!.timestamp;
    v.send({ type: 'control', action: 'resume' });
    expect((await v.answered('resume')).ok).toBe(true);
    await until(() => v.video().length >= paused + 10);
    expect(v.video()[paused]!.timestamp).toBe(last + 40);

    // Seek 5 minutes on: the next frames start at a key frame at the new position.
    const target = rec.startTime + 5 * 60_000 + 500;
    const before = v.video().length;
    v.send({ type: 'control', action: 'seek', time: target });
    expect((await v.answered('seek')).ok).toBe(true);
    await until(() => v.video().some((f, i) => i >= before && f.timestamp >= target - 1000));
    const after = v.video().slice(before);
    const jump = after.findIndex((f) => f.timestamp >= target - 1000);
    expect(after[jump]!.key).toBe(true);
    expect(after[jump]!.timestamp).toBe(target - 500);
    // Nothing from before the seek arrives after the jump.
    await until(() => v.video().length >= before + jump + 10);
    expect(v.video().slice(before + jump).every((f) => f.timestamp >= target - 500)).toBe(true);

    // 8×: key frames only, a second of recording apart.
    v.send({ type: 'control', action: 'speed', speed: 8 });
    expect((await v.answered('speed')).ok).toBe(true);
    await sleep(200);
    const fast = v.video().length;
    await until(() => v.video().length >= fast + 6);
    const fastFrames = v.video().slice(fast, fast + 6);
    expect(fastFrames.every((f) => f.key)).toBe(true);
    expect(fastFrames.slice(1).map((f, i) => f.timestamp - fastFrames[i]!.timestamp)).toEqual(Array(5).fill(1000));

    // Leaving sends 0x9202 stop: the terminal ends the stream.
    expect(playbackStreamer.isPlaying(deviceNo, 1)).toBe(true);
    v.close();
    await until(() => !playbackStreamer.isPlaying(deviceNo, 1));
    expect(server.app.media.playback.hub.stats.sessions).toBe(0);
  });

  it('plays back a channel on its own port while the same channel plays live', async () => {
    const { vehicleId } = online[1]!;
    const rec = await longRecording(vehicleId, 2);
    const live = new WebSocket(`${base}/ws-service/video?token=${adminToken}&vehicleId=${vehicleId}&channel=2&stream=1`);
    const liveFrames: MediaFrame[] = [];
    live.on('message', (d, bin) => {
      if (bin) liveFrames.push(decodeMediaFrame(new Uint8Array(d as Buffer)));
    });
    const v = new Viewer(playPath(vehicleId, 2, rec.startTime, rec.endTime));
    await until(() => liveFrames.length >= 20 && v.video().length >= 20);
    // Live frames carry today's clock, playback frames the recording's time: nothing crossed over.
    expect(v.video().every((f) => f.timestamp >= rec.startTime && f.timestamp < rec.endTime)).toBe(true);
    expect(liveFrames.every((f) => f.timestamp > rec.endTime)).toBe(true);
    // A second playback of the channel is refused: the terminal plays one per channel.
    const other = new Viewer(playPath(vehicleId, 2, rec.startTime, rec.endTime));
    await until(() => other.statuses.length > 0);
    expect(other.states()).toEqual(['stopped:busy']);
    v.close();
    live.close();
    await until(() => server.app.media.playback.hub.stats.sessions === 0);
  });

  it('ends with "no recording" for an empty period and "ended" after the last frame, refuses bad controls, and an offline vehicle gets the spec\'s reason', async () => {
    const { vehicleId } = online[2]!;
    // The future holds no recordings.
    const t = Math.floor(Date.now() / 1000) * 1000 + 3_600_000;
    const empty = new Viewer(playPath(vehicleId, 1, t, t + 600_000));
    await until(() => empty.states().includes('stopped:noRecording'));
    expect(await empty.closed).toBe(1000);

    const rec = await longRecording(vehicleId, 3);
    // Two seconds of it: the terminal plays them and closes; the viewer hears "ended".
    const short = new Viewer(playPath(vehicleId, 3, rec.startTime, rec.startTime + 2000));
    await until(() => short.states().includes('stopped:ended'));
    expect(short.video().length).toBe(50);
    expect(short.video().at(-1)!.timestamp).toBe(rec.startTime + 1960);
    await until(() => server.app.media.playback.hub.stats.sessions === 0);

    const v = new Viewer(playPath(vehicleId, 3, rec.startTime, rec.endTime));
    await until(() => v.video().length > 0);
    v.send({ type: 'control', action: 'speed', speed: 3 });
    await until(() => v.answers.length > 0);
    expect(v.answers[0]).toMatchObject({ ok: false, reason: 'badControl' });
    v.send({ type: 'control', action: 'seek', time: rec.endTime + 3_600_000 });
    await until(() => v.answers.length > 1);
    expect(v.answers[1]).toMatchObject({ action: 'seek', ok: false, reason: 'badControl' });
    v.close();

    const off = new Viewer(playPath(offlineVehicle, 1, rec.startTime, rec.endTime));
    await until(() => off.statuses.length > 0);
    expect(off.states()).toEqual(['stopped:vehicleOffline']);
    const statuses: MediaStatus[] = off.statuses as MediaStatus[];
    expect(statuses[0]!.state).toBe('stopped');
  });
});
