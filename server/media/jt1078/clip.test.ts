import { describe, expect, it } from 'vitest';
import { describeAvc, isHevcKeyFrame, isIdrAccessUnit, nalRanges, splitAccessUnits } from '../../../proto/h264.ts';
import { PAYLOAD_TYPE, type SimLength } from './packet.ts';
import { Packetizer } from './packetizer.ts';
import { FrameAssembler, type MediaFrame } from './reassembly.ts';
import { PacketSplitter } from './splitter.ts';
import { chunks, concat, differingIndexes, fixture } from './test-support.ts';

/** H.265 access units, cut before each AUD (type 35) as the fixture has one per picture. */
function hevcAccessUnits(stream: Uint8Array): Uint8Array[] {
  const starts = nalRanges(stream)
    .filter((r) => ((stream[r.payload]! >> 1) & 0x3f) === 35)
    .map((r) => r.start);
  return starts.map((s, i) => stream.subarray(s, starts[i + 1] ?? stream.length));
}

interface Sent {
  stream: Uint8Array;
  video: Uint8Array[];
  audio: Uint8Array[];
}

/** What a simulated terminal sends: each access unit then 40 ms of G.711A, on one serial counter. */
function send(aus: readonly Uint8Array[], keyFrame: (au: Uint8Array) => boolean, simLength: SimLength, videoPayloadType: number = PAYLOAD_TYPE.H264): Sent {
  const alaw = fixture('audio-g711a-8k-mono-4s.alaw');
  const sender = new Packetizer({ sim: '013800138000', channel: 2, simLength, videoPayloadType, serial: 65_000 });
  const parts: Uint8Array[] = [];
  const audio: Uint8Array[] = [];
  aus.forEach((au, i) => {
    parts.push(sender.video(au, 1_700_000_000_000 + i * 40, keyFrame(au)));
    const a = alaw.subarray((i * 320) % alaw.length, ((i * 320) % alaw.length) + 320);
    audio.push(a);
    parts.push(sender.audio(a, 1_700_000_000_000 + i * 40));
  });
  return { stream: concat(parts), video: [...aus], audio };
}

function receive(stream: Uint8Array, seed: number, simLength: SimLength): { frames: MediaFrame[]; splitter: PacketSplitter; assembler: FrameAssembler } {
  const splitter = new PacketSplitter({ simLength });
  const assembler = new FrameAssembler();
  const frames: MediaFrame[] = [];
  for (const c of chunks(stream, seed, 4000)) {
    splitter.push(c, (p) => {
      const f = assembler.push(p);
      if (f) frames.push(f);
    });
  }
  return { frames, splitter, assembler };
}

describe('fixture clips through the media path', () => {
  const main = splitAccessUnits(fixture('main-640x360-25fps-4s.h264'));

  it.each([1, 2, 3, 4, 5])('gets every access unit and audio frame of the main clip back intact through random TCP chunking (seed %i)', (seed) => {
    const sent = send(main, isIdrAccessUnit, 6);
    const { frames, splitter, assembler } = receive(sent.stream, seed, 6);
    const video = frames.filter((f) => f.kind === 'video');
    const audio = frames.filter((f) => f.kind === 'audio');
    expect(video).toHaveLength(100);
    expect(audio).toHaveLength(100);
    expect(differingIndexes(video.map((f) => f.data), sent.video)).toEqual([]);
    expect(differingIndexes(audio.map((f) => f.data), sent.audio)).toEqual([]);
    expect(video.flatMap((f, i) => (f.dataType === 0 ? [i] : []))).toEqual([0, 25, 50, 75]);
    expect(video.map((f) => f.timestamp! - 1_700_000_000_000)).toEqual(main.map((_, i) => i * 40));
    expect(video[26]).toMatchObject({ lastFrameInterval: 40, lastIFrameInterval: 40, sim: '13800138000', channel: 2, payloadType: 98 });
    expect(frames.some((f) => f.discontinuity)).toBe(false);
    expect(splitter.stats).toMatchObject({ garbageBytes: 0, badHeader: 0, tooLong: 0, truncated: 0, badSim: 0 });
    expect(assembler.stats).toMatchObject({ dropped: 0, gaps: 0, duplicates: 0 });
    expect(splitter.pending).toBe(0);
    expect(assembler.pendingBytes).toBe(0);
  });

  it('yields a decoder config (codec string and size) from the first reassembled key frame', () => {
    const { frames } = receive(send(main, isIdrAccessUnit, 6).stream, 9, 6);
    expect(describeAvc(frames[0]!.data)).toMatchObject({ codec: 'avc1.42C01E', width: 640, height: 360 });
  });

  it('carries the sub-stream clip over 10-byte SIM packets', () => {
    const sub = splitAccessUnits(fixture('sub-320x180-25fps-4s.h264'));
    const sent = send(sub, isIdrAccessUnit, 10);
    const { frames } = receive(sent.stream, 6, 10);
    const video = frames.filter((f) => f.kind === 'video');
    expect(differingIndexes(video.map((f) => f.data), sent.video)).toEqual([]);
    expect(describeAvc(video[0]!.data)).toMatchObject({ width: 320, height: 180 });
  });

  it('passes H.265 access units through unchanged with payload type 99', () => {
    const aus = hevcAccessUnits(fixture('hevc-320x180-25fps-2s.h265'));
    expect(aus).toHaveLength(50);
    const sent = send(aus, isHevcKeyFrame, 6, PAYLOAD_TYPE.H265);
    const video = receive(sent.stream, 8, 6).frames.filter((f) => f.kind === 'video');
    expect(differingIndexes(video.map((f) => f.data), sent.video)).toEqual([]);
    expect(video.every((f) => f.payloadType === 99)).toBe(true);
    expect(video.flatMap((f, i) => (f.dataType === 0 ? [i] : []))).toEqual([0, 25]);
  });
});
