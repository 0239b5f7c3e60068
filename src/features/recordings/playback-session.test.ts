import { describe, expect, it } from 'vitest';
import { alarmBits, parsePlaybackControl, playbackMessage, speedCode } from '../../../domain/video/playback.ts';
import { encodeMediaFrame, MEDIA_KIND } from '../../../proto/media-frame.ts';
import { PlaybackSession, type SocketLike } from './playback-session.ts';
import { timelineRows } from './timeline.ts';
import type { Recording } from './api.ts';

class FakeSocket implements SocketLike {
  binaryType = 'blob';
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readyState = 1;
  sent: string[] = [];
  closed = false;
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.closed = true;
  }
  text(o: unknown): void {
    this.onmessage?.({ data: JSON.stringify(o) });
  }
  frame(timestamp: number, key = false, kind: number = MEDIA_KIND.H264): void {
    const bytes = encodeMediaFrame({ kind: kind as 1, key, discontinuity: false, channel: 1, timestamp, arrival: Date.now(), payload: new Uint8Array([0, 0, 0, 1, 0x65]) });
    this.onmessage?.({ data: bytes.buffer });
  }
}

function session() {
  const socket = new FakeSocket();
  const fed: Uint8Array[] = [];
  const failed: string[] = [];
  const s = new PlaybackSession({ url: 'ws://x', start: 1_000_000, createSocket: () => socket, feed: (b) => fed.push(b), onControlFailed: (a, r) => failed.push(`${a}:${r}`) });
  return { s, socket, fed, failed };
}

describe('PlaybackSession', () => {
  it('shows the recording time of the frames, feeds them on, and follows the server\'s states', () => {
    const { s, socket, fed } = session();
    expect(socket.binaryType).toBe('arraybuffer');
    expect(s.get()).toMatchObject({ state: 'connecting', position: 1_000_000 });
    socket.text({ type: 'status', state: 'playing', speed: 1 });
    socket.frame(1_000_000, true);
    socket.frame(1_000_040);
    socket.frame(1_001_000);
    expect(s.get()).toMatchObject({ state: 'playing', position: 1_001_000, speed: 1 });
    expect(fed.length).toBe(3);
    // Audio is fed but does not move the position.
    socket.frame(5_000_000, false, MEDIA_KIND.G711A);
    expect(s.get().position).toBe(1_001_000);
    expect(fed.length).toBe(4);
    socket.text({ type: 'status', state: 'stopped', reason: 'ended' });
    expect(s.get()).toMatchObject({ state: 'stopped', reason: 'ended' });
  });

  it('sends controls up the socket; a seek shows its target until frames from there arrive', () => {
    const { s, socket, failed } = session();
    socket.text({ type: 'status', state: 'playing', speed: 1 });
    s.pause();
    s.setSpeed(8);
    s.seek(1_300_400);
    expect(socket.sent.map((m) => JSON.parse(m) as unknown)).toEqual([
      { type: 'control', action: 'pause' },
      { type: 'control', action: 'speed', speed: 8 },
      { type: 'control', action: 'seek', time: 1_300_000 },
    ]);
    expect(s.get().seeking).toBe(1_300_400);
    // An old frame still in flight does not end the seek.
    socket.frame(1_002_000);
    expect(s.get().seeking).toBe(1_300_400);
    socket.frame(1_300_000, true);
    expect(s.get()).toMatchObject({ position: 1_300_000, seeking: undefined });
    socket.text({ type: 'control', action: 'speed', ok: false, reason: 'noResponse' });
    expect(failed).toEqual(['speed:noResponse']);
  });

  it('a socket that closes without a reason is a failed connection; dispose closes it quietly', () => {
    const { s, socket } = session();
    socket.onclose?.();
    expect(s.get()).toMatchObject({ state: 'stopped', reason: 'connectFailed' });
    const other = session();
    other.s.dispose();
    expect(other.socket.closed).toBe(true);
    other.s.pause();
    expect(other.socket.sent).toEqual([]);
  });
});

describe('playback rules', () => {
  it('reads only valid control messages', () => {
    expect(parsePlaybackControl('{"type":"control","action":"seek","time":1700000000123.5}')).toEqual({ type: 'control', action: 'seek', time: 1700000000123 });
    expect(parsePlaybackControl('{"type":"control","action":"speed","speed":16}')).toEqual({ type: 'control', action: 'speed', speed: 16 });
    expect(parsePlaybackControl('{"type":"control","action":"speed","speed":3}')).toBeUndefined();
    expect(parsePlaybackControl('{"type":"control","action":"seek","time":-1}')).toBeUndefined();
    expect(parsePlaybackControl('{"type":"control","action":"rewind"}')).toBeUndefined();
    expect(parsePlaybackControl('not json')).toBeUndefined();
    expect(speedCode(1)).toBe(1);
    expect(speedCode(16)).toBe(5);
    expect(alarmBits((1n << 36n) | 2n)).toEqual([1, 36]);
  });

  it('words reasons in both languages, the spec\'s video messages first', () => {
    expect(playbackMessage('vehicleOffline', 'zh')).toBe('车辆不在线，无法播放');
    expect(playbackMessage('noResponse', 'en')).toBe('No response from the device, reconnect');
    expect(playbackMessage('noRecording', 'zh')).toBe('该时段没有录像');
    expect(playbackMessage('busy', 'en')).toBe('Another user is playing back this channel, try later');
    expect(playbackMessage('whatever', 'en')).toBe('Playback control failed, retry');
  });
});

describe('timeline', () => {
  const rec = (channel: number, startTime: number, endTime: number): Recording => ({ channel, startTime, endTime, alarms: [], mediaType: 0, streamType: 1, storageType: 1, fileSize: 1 });
  it('puts each channel on its own bar, clipped to the period, short files still visible', () => {
    const rows = timelineRows([rec(2, 0, 500), rec(1, 250, 750), rec(1, 900, 901), rec(3, 2000, 3000)], 0, 1000);
    expect(rows.map((r) => r.channel)).toEqual([1, 2]);
    expect(rows[0]!.bars.map((b) => [b.left, b.width])).toEqual([[25, 50], [90, 0.3]]);
    expect(rows[1]!.bars.map((b) => [b.left, b.width])).toEqual([[0, 50]]);
  });
});
