/**
 * Live video on the server: the MediaHub, the TCP media port and the signalling to terminals over
 * the JT/T 808 gateway. `listen` is separate (main.ts uses MEDIA_PORT, tests port 0); the 0x9101
 * sent to terminals names the port actually bound.
 */
import type { Config } from '../config.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { gatewaySignalling } from '../services/video/signalling.ts';
import { MediaHub } from './media-hub.ts';
import { MediaPort, mediaPortOptions } from './media-port.ts';
import { createPlaybackRuntime, type PlaybackRuntime } from './playback-runtime.ts';
import { gatewayTalkSignalling } from '../services/video/talk-signalling.ts';
import { TalkHub } from './talk.ts';

export interface MediaRuntime {
  readonly hub: MediaHub;
  readonly port: MediaPort;
  /** Two-way intercom and centre broadcast on the same media port (talk.ts). */
  readonly talk: TalkHub;
  /** Remote playback (0x9201) on its own port: MEDIA_PLAYBACK_PORT, or a free one when the media port is 0. */
  readonly playback: PlaybackRuntime;
  /** Listens on the media port (and the playback port); answers the bound media port. */
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export function createMediaRuntime(config: Config, gateway: Jt808Gateway): MediaRuntime {
  let bound = config.mediaPort;
  const hub = new MediaHub(gatewaySignalling(gateway, () => ({ host: config.mediaPublicHost, tcpPort: bound })));
  const port = new MediaPort(hub, mediaPortOptions(config, gateway, true));
  const talk = new TalkHub(gatewayTalkSignalling(gateway, () => ({ host: config.mediaPublicHost, tcpPort: bound })));
  port.tap = talk;
  const playback = createPlaybackRuntime(gateway, config);
  return {
    hub,
    port,
    talk,
    playback,
    async listen(p, host) {
      bound = await port.listen(p, host);
      await playback.listen(p === 0 ? 0 : config.mediaPlaybackPort, host);
      return bound;
    },
    close: async () => {
      await Promise.all([port.close(), playback.close()]);
    },
  };
}
