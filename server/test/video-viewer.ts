/**
 * A live-video viewer over the real `/ws-service/video` route, for server tests: keeps the decoded
 * frames and the status messages the hub sends.
 */
import WebSocket from 'ws';
import { decodeMediaFrame, type MediaFrame, type MediaStatus } from '../../proto/media-frame.ts';

export class VideoViewer {
  readonly frames: MediaFrame[] = [];
  readonly statuses: MediaStatus[] = [];
  readonly ws: WebSocket;
  /** Resolves with the close code once the socket has closed. */
  readonly closed: Promise<number>;

  /** `base` is the server's `ws://host:port`. */
  constructor(base: string, token: string, vehicleId: number, channel: number, stream = 1) {
    this.ws = new WebSocket(`${base}/ws-service/video?token=${token}&vehicleId=${vehicleId}&channel=${channel}&stream=${stream}`);
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) this.frames.push(decodeMediaFrame(new Uint8Array(data as Buffer)));
      else this.statuses.push(JSON.parse(String(data)) as MediaStatus);
    });
    this.ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
  }

  /** Each status as `state` or `state:reason`. */
  states(): string[] {
    return this.statuses.map((s) => (s.reason ? `${s.state}:${s.reason}` : s.state));
  }

  /** Admitted: the hub answered with something other than stopped (connecting or playing). */
  admitted(): boolean {
    return this.statuses.some((s) => s.state !== 'stopped');
  }

  /** Closes the socket; await it to know the server has seen the close. */
  close(): Promise<number> {
    this.ws.close();
    return this.closed;
  }
}
