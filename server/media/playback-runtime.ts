/**
 * Remote playback on the server: the PlaybackHub fed by its own media port (the playback port,
 * MEDIA_PLAYBACK_PORT), with 0x9201/0x9202 signalling over the gateway naming that port.
 */
import type { Config } from '../config.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { gatewayPlayback } from '../services/video/playback-signalling.ts';
import { MediaPort, mediaPortOptions } from './media-port.ts';
import { PlaybackHub } from './playback-hub.ts';

export interface PlaybackRuntime {
  readonly hub: PlaybackHub;
  readonly port: MediaPort;
  listen(port: number, host: string): Promise<number>;
  /** The bound port (0 before listening). */
  boundPort(): number;
  close(): Promise<void>;
}

export function createPlaybackRuntime(gateway: Jt808Gateway, config: Config): PlaybackRuntime {
  let bound = 0;
  const hub = new PlaybackHub(gatewayPlayback(gateway, () => ({ host: config.mediaPublicHost, tcpPort: bound })));
  // The same binding rules as the live port, against the 0x9201 that was sent.
  const port = new MediaPort(hub, mediaPortOptions(config, gateway));
  return {
    hub,
    port,
    async listen(p, host) {
      bound = await port.listen(p, host);
      return bound;
    },
    boundPort: () => bound,
    close: () => port.close(),
  };
}
