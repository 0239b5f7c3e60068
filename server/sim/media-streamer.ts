/**
 * The media side of a simulated terminal: after a 0x9101 live request it connects to the media
 * server's TCP port and streams the committed clip of the requested stream (main 640x360 or sub
 * 320x180, fixtures/video/) as JT/T 1078 packets at 25 fps, looped with advancing timestamps, with
 * G.711A audio interleaved when audio was asked for; 0x9102 close stops it. Every channel shows the
 * same clip: the burned-in frame counter and time let tests and people see that it moves.
 *
 * One 40 ms timer per process drives every stream (thousands of terminals, a few dozen streams).
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIdrAccessUnit, splitAccessUnits } from '../../proto/h264.ts';
import { Packetizer, type SimLength } from '../media/jt1078/index.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/video');
const FRAME_MS = 40;
/** 320 bytes of G.711A = 40 ms at 8 kHz: one audio frame per video frame. */
const AUDIO_FRAME_BYTES = 320;
/** Bytes a stream may queue on its socket before it skips frames (≈ 2 s of the main stream). */
const MAX_QUEUED = 160 * 1024;

interface Clip {
  frames: Uint8Array[];
  keys: boolean[];
}

let clips: { main: Clip; sub: Clip; audio: Uint8Array } | undefined;

/** The fixtures, read once per process on first use. */
function loadClips(): NonNullable<typeof clips> {
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

export interface StreamRequest {
  host: string;
  port: number;
  sim: string;
  simLength: SimLength;
  channel: number;
  /** 0 main, 1 sub. */
  streamType: number;
  withAudio: boolean;
}

interface ActiveStream {
  readonly request: StreamRequest;
  readonly socket: net.Socket;
  readonly tx: Packetizer;
  readonly clip: Clip;
  frame: number;
  timestamp: number;
  /** Waiting for the next key frame after skipping (a P-frame without its reference is garbage). */
  resync: boolean;
}

export interface MediaStreamerStats {
  streams: number;
  framesSent: number;
  framesSkipped: number;
  connectFailures: number;
}

export class MediaStreamer {
  readonly stats: MediaStreamerStats = { streams: 0, framesSent: 0, framesSkipped: 0, connectFailures: 0 };
  private readonly streams = new Map<string, ActiveStream>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts (or restarts) streaming a channel; resolves once connected, rejects if the media port is unreachable. */
  start(request: StreamRequest): Promise<void> {
    const key = `${request.sim}:${request.channel}`;
    this.stop(request.sim, request.channel);
    const { main, sub } = loadClips();
    return new Promise((resolve, reject) => {
      const socket = net.connect(request.port, request.host);
      socket.setNoDelay(true);
      socket.once('error', (err) => {
        if (this.streams.get(key)?.socket === socket) this.remove(key);
        else {
          this.stats.connectFailures++;
          reject(err);
        }
      });
      socket.once('close', () => {
        if (this.streams.get(key)?.socket === socket) this.remove(key);
      });
      socket.once('connect', () => {
        this.streams.set(key, {
          request,
          socket,
          tx: new Packetizer({ sim: request.sim, channel: request.channel, simLength: request.simLength }),
          clip: request.streamType === 1 ? sub : main,
          frame: 0,
          timestamp: this.now(),
          resync: false,
        });
        this.stats.streams = this.streams.size;
        this.timer ??= setInterval(() => this.tick(), FRAME_MS);
        resolve();
      });
    });
  }

  /** 0x9102 close, logout or a dropped 808 connection. */
  stop(sim: string, channel?: number): void {
    for (const [key, s] of this.streams) {
      if (s.request.sim === sim && (channel === undefined || s.request.channel === channel)) {
        s.socket.end();
        this.remove(key);
      }
    }
  }

  isStreaming(sim: string, channel: number): boolean {
    return this.streams.has(`${sim}:${channel}`);
  }

  close(): void {
    for (const s of this.streams.values()) s.socket.destroy();
    this.streams.clear();
    this.stats.streams = 0;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private remove(key: string): void {
    this.streams.delete(key);
    this.stats.streams = this.streams.size;
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    const audio = loadClips().audio;
    for (const s of this.streams.values()) {
      const i = s.frame % s.clip.frames.length;
      const key = s.clip.keys[i]!;
      s.frame++;
      s.timestamp += FRAME_MS;
      if (s.socket.writableLength > MAX_QUEUED || (s.resync && !key)) {
        // The media server is not reading: skip rather than queue, and resume at a key frame.
        s.resync = true;
        this.stats.framesSkipped++;
        continue;
      }
      s.resync = false;
      s.socket.write(s.tx.video(s.clip.frames[i]!, s.timestamp, key));
      if (s.request.withAudio) {
        const at = (i * AUDIO_FRAME_BYTES) % audio.length;
        s.socket.write(s.tx.audio(audio.subarray(at, at + AUDIO_FRAME_BYTES), s.timestamp));
      }
      this.stats.framesSent++;
    }
  }
}
