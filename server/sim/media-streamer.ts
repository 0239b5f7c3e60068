/**
 * The media side of a simulated terminal: after a 0x9101 live request it connects to the media
 * server's TCP port and streams the committed clip of the requested stream (main 640x360 or sub
 * 320x180, fixtures/video/) as JT/T 1078 packets at 25 fps, looped with advancing timestamps, with
 * G.711A audio interleaved when audio was asked for; 0x9102 close stops it. Every channel shows the
 * same clip: the burned-in frame counter and time let tests and people see that it moves.
 *
 * One 40 ms timer per process drives every stream (thousands of terminals, a few dozen streams).
 */
import { audioFrame, ClipStreamSet, FRAME_MS, loadClips, MAX_QUEUED, type Clip, type ClipStream, type ClipStreamTarget } from './clip-streams.ts';

export interface StreamRequest extends ClipStreamTarget {
  /** 0 main, 1 sub. */
  streamType: number;
  withAudio: boolean;
}

interface ActiveStream extends ClipStream<StreamRequest> {
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

export class MediaStreamer extends ClipStreamSet<StreamRequest, ActiveStream> {
  readonly stats: MediaStreamerStats = { streams: 0, framesSent: 0, framesSkipped: 0, connectFailures: 0 };

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  /** Starts (or restarts) streaming a channel; resolves once connected, rejects if the media port is unreachable. */
  start(request: StreamRequest): Promise<void> {
    const { main, sub } = loadClips();
    return this.connect(
      request,
      (stream) => ({ ...stream, clip: request.streamType === 1 ? sub : main, frame: 0, timestamp: this.now(), resync: false }),
      () => this.stats.connectFailures++,
    );
  }

  isStreaming(sim: string, channel: number): boolean {
    return this.has(sim, channel);
  }

  protected tick(): void {
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
      if (s.request.withAudio) s.socket.write(s.tx.audio(audioFrame(audio, i), s.timestamp));
      this.stats.framesSent++;
    }
  }
}
