import { describe, expect, it } from 'vitest';
import { decodeTrack, encodeTrack } from '../../../proto/track-codec.ts';
import { bucketTolerance } from './simplify.ts';
import { chartSeries, TrackCore, transferablesOf } from './track-core.ts';
import { synthTrack } from './synthetic.ts';
import type { LoadedTrack, TrackLoadRequest } from './protocol.ts';

const REQ: TrackLoadRequest = { url: 'http://h/service-monitor/trail/binary', token: 'tok', lang: 'zh', vehicleId: 1, startTime: 0, endTime: 1, crs: 'wgs84', zoom: 10 };

function coreServing(bytes: Uint8Array | { json: unknown; status: number }) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const core = new TrackCore({
    decode: decodeTrack,
    fetch: async (url, init) => {
      calls.push({ url, headers: init.headers as Record<string, string> });
      if (bytes instanceof Uint8Array) return new Response(bytes as BodyInit, { headers: { 'content-type': 'application/x-protobuf', jwt: 'fresh' } });
      return new Response(JSON.stringify(bytes.json), { status: bytes.status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { core, calls };
}

async function loaded(n: number): Promise<{ track: LoadedTrack; core: TrackCore; calls: { url: string; headers: Record<string, string> }[] }> {
  const { core, calls } = coreServing(encodeTrack(synthTrack(n)));
  const answer = await core.load(REQ);
  if (!answer.ok) throw new Error(answer.msg);
  return { track: answer.track, core, calls };
}

describe('the track worker core', () => {
  it('asks for the vehicle and period with the session token and hands back the refreshed token', async () => {
    const { track, calls } = await loaded(5000);
    expect(calls[0]!.url).toBe('http://h/service-monitor/trail/binary?vehicleId=1&startTime=0&endTime=1');
    expect(calls[0]!.headers['x-jwt']).toBe('tok');
    expect(track.jwt).toBe('fresh');
  });

  it('answers the server’s validation message instead of a track', async () => {
    const { core } = coreServing({ json: { code: 400, msg: '查询时间段不能超过七天' }, status: 400 });
    expect(await core.load(REQ)).toEqual({ ok: false, code: 400, msg: '查询时间段不能超过七天' });
  });

  it('marks the drift spike, the discontinuous gap, the stops and the alarm points of a track', async () => {
    const { track } = await loaded(30_000);
    expect([...track.drift]).toEqual([500]);
    expect(track.driftFlags[500]).toBe(1);
    expect(track.gaps).toHaveLength(1);
    expect(track.gaps[0]!.from).toBe(1999);
    // Parked 20 min at the end of every 10,000 points.
    expect(track.stops.length).toBe(3);
    expect(track.alarmPoints.length).toBe(30);
    expect(track.time.length).toBe(30_000);
    expect(track.chartTime.length).toBeLessThanOrEqual(2000);
  });

  it('cuts the path at the gap and keeps it within a pixel at the asked zoom', async () => {
    const { track, core } = await loaded(30_000);
    expect(track.path.bucket).toBe(10);
    expect(track.path.startIndices.length).toBe(2);
    const coarse = core.path(track.key, 4)!;
    const fine = core.path(track.key, 16)!;
    expect(coarse.vertices).toBeLessThan(track.path.vertices);
    expect(fine.vertices).toBeGreaterThan(track.path.vertices);
    expect(bucketTolerance(16)).toBeLessThan(bucketTolerance(4));
  });

  it('recomputes the stops with another minutes filter', async () => {
    const { track, core } = await loaded(30_000);
    expect(core.stops(track.key, 30)).toEqual([]);
    expect(core.stops(track.key, 10)!.length).toBe(3);
    core.release(track.key);
    expect(core.stops(track.key, 10)).toBeNull();
  });

  it('transfers every buffer exactly once', async () => {
    const { core } = coreServing(encodeTrack(synthTrack(3000)));
    const answer = await core.load(REQ);
    const list = transferablesOf(answer);
    expect(new Set(list).size).toBe(list.length);
    // lng/x and lat/y share their buffers in WGS-84 display: 14 distinct buffers for 16 arrays.
    expect(list.length).toBe(14);
  });

  it('keeps every speed peak in the chart series', () => {
    const time = Float64Array.from({ length: 10_000 }, (_, i) => i * 1000);
    const speed = new Float32Array(10_000);
    speed[4321] = 99;
    const s = chartSeries(time, speed, 100);
    expect(s.chartTime.length).toBe(100);
    expect(Math.max(...s.chartSpeed)).toBe(99);
  });
});

describe('a track the worker cannot read', () => {
  it('answers a refusal naming the problem instead of throwing', async () => {
    const { core } = coreServing(new Uint8Array([0xff, 0xff, 0xff]));
    const answer = await core.load(REQ);
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.msg.length).toBeGreaterThan(0);
  });
});
