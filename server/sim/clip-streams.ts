/**
 * What the simulated terminal's live streamer (media-streamer.ts) and playback streamer (playback.ts)
 * share: the committed clips (fixtures/video/, read once per process) and a set of JT/T 1078 media
 * connections, one per SIM and channel, driven by one 40 ms timer per process.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIdrAccessUnit, splitAccessUnits } from '../../proto/h264.ts';
import { Packetizer, type SimLength } from '../media/jt1078/index.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/video');
export const FRAME_MS = 40;
/** 320 bytes of G.711A = 40 ms at 8 kHz: one audio frame per video frame. */
export const AUDIO_FRAME_BYTES = 320;
/** Bytes a stream may queue on its socket before it holds back (≈ 2 s of the main stream). */
export const MAX_QUEUED = 160 * 1024;

export interface Clip {
  frames: Uint8Array[];
  keys: boolean[];
}

let clips: { main: Clip; sub: Clip; audio: Uint8Array } | undefined;

/** The fixtures: main 640x360 and sub 320x180 H.264 at 25 fps, G.711A audio; read once per process on first use. */
export function loadClips(): NonNullable<typeof clips> {
  if (!clips) {
    const clip = (name: string): Clip => {
      const frames = splitAccessUnits(new Uint8Array(readFileSync(path.join(FIXTURES, name))));
      return { frames, keys: frames.map(isIdrAccessUnit) };
    };
    clips = {
      main: clip('main-640x360-25fps-4s.h264'),
      sub: clip('sub-320x180-25fps-4s.h264'),
      audio: new Uint8Array(readFileSync(path.join(FIXTURES, 'audio-g711a-8k-mono-4s.alaw'))),
    };
  }
  return clips;
}

/** The G.711A audio frame that goes with video frame `i` of a clip. */
export function audioFrame(audio: Uint8Array, i: number): Uint8Array {
  const at = (i * AUDIO_FRAME_BYTES) % audio.length;
  return audio.subarray(at, at + AUDIO_FRAME_BYTES);
}

/** Where a stream goes: the media server's address and the terminal's SIM and channel. */
export interface ClipStreamTarget {
  host: string;
  port: number;
  sim: string;
  simLength: SimLength;
  channel: number;
}

export interface ClipStream<R extends ClipStreamTarget> {
  readonly request: R;
  readonly socket: net.Socket;
  readonly tx: Packetizer;
}

/** The connections of one kind of stream; subclasses say what a tick sends. */
export abstract class ClipStreamSet<R extends ClipStreamTarget, S extends ClipStream<R>> {
  abstract readonly stats: { streams: number };
  protected readonly streams = new Map<string, S>();
  private timer: NodeJS.Timeout | null = null;

  /** Sends the due frames of every stream (every 40 ms while any stream is open). */
  protected abstract tick(): void;

  /**
   * Connects (replacing the channel's stream) and adds the stream `init` makes; resolves once connected,
   * rejects (after `onConnectFailure`) if the media address is unreachable.
   */
  protected connect(request: R, init: (stream: ClipStream<R>) => S, onConnectFailure?: () => void): Promise<void> {
    const key = streamKey(request.sim, request.channel);
    this.stop(request.sim, request.channel);
    return new Promise((resolve, reject) => {
      const socket = net.connect(request.port, request.host);
      socket.setNoDelay(true);
      socket.once('error', (err) => {
        if (this.streams.get(key)?.socket === socket) this.remove(key);
        else {
          onConnectFailure?.();
          reject(err);
        }
      });
      socket.once('close', () => {
        if (this.streams.get(key)?.socket === socket) this.remove(key);
      });
      socket.once('connect', () => {
        this.streams.set(key, init({ request, socket, tx: new Packetizer({ sim: request.sim, channel: request.channel, simLength: request.simLength }) }));
        this.stats.streams = this.streams.size;
        this.timer ??= setInterval(() => this.tick(), FRAME_MS);
        resolve();
      });
    });
  }

  /** Ends a terminal's streams (one channel, or all of them). */
  stop(sim: string, channel?: number): void {
    for (const [key, s] of this.streams) {
      if (s.request.sim === sim && (channel === undefined || s.request.channel === channel)) {
        s.socket.end();
        this.remove(key);
      }
    }
  }

  close(): void {
    for (const s of this.streams.values()) s.socket.destroy();
    this.streams.clear();
    this.stats.streams = 0;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  protected has(sim: string, channel: number): boolean {
    return this.streams.has(streamKey(sim, channel));
  }

  protected find(sim: string, channel: number): S | undefined {
    return this.streams.get(streamKey(sim, channel));
  }

  protected remove(key: string): void {
    this.streams.delete(key);
    this.stats.streams = this.streams.size;
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

function streamKey(sim: string, channel: number): string {
  return `${sim}:${channel}`;
}
