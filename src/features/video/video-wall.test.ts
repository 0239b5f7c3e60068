import { describe, expect, it } from 'vitest';
import { VideoWall, type ChannelRef, type PlayTypeStore } from './video-wall.ts';

const channels = (n: number, vehicle = 1): ChannelRef[] => Array.from({ length: n }, (_, i) => ({ vehicleId: vehicle + Math.floor(i / 4), plate: `京A${vehicle}`, channel: (i % 4) + 1 }));

class MemoryStore implements PlayTypeStore {
  map = new Map<string, string>();
  get(k: string) {
    return this.map.get(k) ?? null;
  }
  set(k: string, v: string) {
    this.map.set(k, v);
  }
}

describe('the video wall', () => {
  it('fills free windows and grows the grid to hold them', () => {
    const wall = new VideoWall();
    expect(wall.open(channels(4))).toEqual({ kind: 'opened', windows: [0, 1, 2, 3] });
    expect(wall.get().grid).toBe(4);
    wall.open(channels(2, 10));
    expect(wall.get().grid).toBe(9);
    expect(wall.get().windows.filter(Boolean)).toHaveLength(6);
  });

  it('does not open a channel twice', () => {
    const wall = new VideoWall();
    wall.open(channels(2));
    expect(wall.open(channels(3))).toEqual({ kind: 'opened', windows: [2] });
  });

  it('asks before reaching 20 channels and refuses the 26th', () => {
    const wall = new VideoWall();
    wall.open(channels(16));
    const r = wall.open(channels(4, 100));
    expect(r.kind).toBe('confirm');
    expect(wall.get().windows.filter(Boolean)).toHaveLength(16);
    if (r.kind === 'confirm') expect(r.proceed()).toMatchObject({ kind: 'opened' });
    expect(wall.get().grid).toBe(25);
    expect(wall.open(channels(5, 200))).toMatchObject({ kind: 'opened' });
    expect(wall.open(channels(1, 300))).toEqual({ kind: 'refused' });
  });

  it('remembers the stream chosen for a window under its play-type key', () => {
    const store = new MemoryStore();
    const wall = new VideoWall({ store });
    wall.open(channels(1));
    expect(wall.get().windows[0]!.stream).toBe(0);
    wall.switchStream(0);
    expect(store.map.get('playType0')).toBe('1');
    const key = wall.get().windows[0]!.key;
    wall.close(0);
    wall.open(channels(1, 7));
    expect(wall.get().windows[0]!.stream).toBe(1);
    expect(wall.get().windows[0]!.key).not.toBe(key);
  });

  it('ignores state reports of a replaced session', () => {
    const wall = new VideoWall();
    wall.open(channels(1));
    const old = wall.get().windows[0]!.key;
    wall.switchStream(0);
    wall.setState(0, old, 'stopped', 'timeout');
    expect(wall.get().windows[0]!.state).toBe('connecting');
  });

  it('asks to continue after the configured playing time, and a continue restarts the period', () => {
    let now = 0;
    const wall = new VideoWall({ now: () => now, autoStopMinutes: 5 });
    wall.open(channels(2));
    const [a, b] = wall.get().windows;
    wall.setState(0, a!.key, 'playing');
    now = 60_000;
    wall.setState(1, b!.key, 'playing');
    now = 5 * 60_000;
    wall.tick();
    expect(wall.get().autoStopDue).toEqual([0]);
    wall.keepPlaying(0);
    now = 6 * 60_000;
    wall.tick();
    expect(wall.get().autoStopDue).toEqual([1]);
  });

  it('counts connecting and playing sessions as playing, not stopped ones', () => {
    const wall = new VideoWall();
    wall.open(channels(3));
    const w = wall.get().windows;
    wall.setState(0, w[0]!.key, 'playing');
    wall.setState(1, w[1]!.key, 'stopped', 'deviceOffline');
    expect(wall.get().playing).toBe(2);
  });

  it('lets the sound of one window play at a time', () => {
    const wall = new VideoWall();
    wall.open(channels(2));
    wall.toggleAudio(0);
    expect(wall.get().audioWindow).toBe(0);
    wall.toggleAudio(1);
    expect(wall.get().audioWindow).toBe(1);
    wall.close(1);
    expect(wall.get().audioWindow).toBe(-1);
  });

  it('keeps the first reason a session stopped for', () => {
    const wall = new VideoWall();
    wall.open(channels(1));
    const key = wall.get().windows[0]!.key;
    wall.setState(0, key, 'stopped', 'vehicleOffline');
    wall.setState(0, key, 'stopped', 'connectFailed');
    wall.setState(0, key, 'reconnecting');
    expect(wall.get().windows[0]).toMatchObject({ state: 'stopped', reason: 'vehicleOffline' });
    wall.retry(0);
    expect(wall.get().windows[0]!.state).toBe('connecting');
  });

  it('plays the grid on sub streams and one double-clicked window on the main stream, then back', () => {
    const store = new MemoryStore();
    const wall = new VideoWall({ store });
    const r = wall.open(channels(25, 1));
    if (r.kind === 'confirm') r.proceed();
    expect(wall.get().windows.filter(Boolean)).toHaveLength(25);
    expect(wall.get().windows.every((w) => w?.stream === 1)).toBe(true);
    const before = wall.get().windows[7]!.key;
    wall.toggleMaximise(7);
    expect(wall.get().maximised).toBe(7);
    expect(wall.get().windows[7]).toMatchObject({ stream: 0, state: 'connecting' });
    expect(wall.get().windows[7]!.key).not.toBe(before);
    // Only that window changed, and its play type was not stored.
    expect(wall.get().windows.filter((w) => w?.stream === 0)).toHaveLength(1);
    expect(store.map.size).toBe(0);
    // Maximising another window puts the first back on its sub stream.
    wall.toggleMaximise(3);
    expect(wall.get().maximised).toBe(3);
    expect(wall.get().windows[7]!.stream).toBe(1);
    wall.toggleMaximise(3);
    expect(wall.get().maximised).toBe(-1);
    expect(wall.get().windows.every((w) => w?.stream === 1)).toBe(true);
  });

  it('keeps a window that plays the main stream by choice on it after maximising', () => {
    const wall = new VideoWall({ store: new MemoryStore() });
    wall.open(channels(9));
    wall.switchStream(1);
    const key = wall.get().windows[1]!.key;
    wall.toggleMaximise(1);
    expect(wall.get().windows[1]!.key).toBe(key);
    wall.toggleMaximise(1);
    expect(wall.get().windows[1]).toMatchObject({ stream: 0, key });
  });

  it('plays main streams in a 4-grid and sub streams above 4 windows, switching the windows that follow the grid', () => {
    const store = new MemoryStore();
    const wall = new VideoWall({ store });
    wall.open(channels(3));
    expect(wall.get().windows.filter(Boolean).map((w) => w!.stream)).toEqual([0, 0, 0]);
    // Window 2 keeps the main stream by choice (stored), the others follow the grid.
    wall.switchStream(2);
    wall.switchStream(2);
    expect(store.map.get('playType2')).toBe('0');
    const keys = wall.get().windows.slice(0, 3).map((w) => w!.key);
    // Opening 3 more grows the grid to 9: every window without a choice asks for the sub stream, as one batch.
    wall.open(channels(3, 20));
    expect(wall.get().grid).toBe(9);
    expect(wall.get().windows.filter(Boolean).map((w) => w!.stream)).toEqual([1, 1, 0, 1, 1, 1]);
    expect(wall.get().windows[0]!.key).not.toBe(keys[0]);
    expect(wall.get().windows[2]!.key).toBe(keys[2]);
    // Back to a 4-grid: the windows that remain return to the main stream.
    wall.setGrid(4);
    expect(wall.get().windows.filter(Boolean).map((w) => w!.stream)).toEqual([0, 0, 0, 0]);
  });

  it('opens 9 channels at once on the sub stream without a first session on the main stream', () => {
    const wall = new VideoWall();
    wall.open(channels(9));
    expect(wall.get().grid).toBe(9);
    expect(wall.get().windows.map((w) => w!.stream)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(wall.get().windows.map((w) => w!.key)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a maximised window stays on the main stream while the grid changes, and returns to the grid\'s choice', () => {
    const wall = new VideoWall();
    wall.open(channels(4));
    wall.toggleMaximise(1);
    const key = wall.get().windows[1]!.key;
    wall.setGrid(9);
    expect(wall.get().windows[1]).toMatchObject({ stream: 0, key });
    expect(wall.get().windows[0]!.stream).toBe(1);
    wall.toggleMaximise(1);
    expect(wall.get().windows[1]!.stream).toBe(1);
  });
});
