/**
 * Live video on the server: the MediaHub, the TCP media port and the signalling to terminals over
 * the JT/T 808 gateway. `listen` is separate (main.ts uses MEDIA_PORT, tests port 0); the 0x9101
 * sent to terminals names the port actually bound.
 */
import type { Config } from '../config.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { gatewaySignalling } from '../services/video/signalling.ts';
import { MediaHub } from './media-hub.ts';
import { MediaPort } from './media-port.ts';

export interface MediaRuntime {
  readonly hub: MediaHub;
  readonly port: MediaPort;
  /** Listens on the media port; answers the bound port. */
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export function createMediaRuntime(config: Config, gateway: Jt808Gateway): MediaRuntime {
  let bound = config.mediaPort;
  const hub = new MediaHub(gatewaySignalling(gateway, () => ({ host: config.mediaPublicHost, tcpPort: bound })));
  const port = new MediaPort(hub);
  return {
    hub,
    port,
    async listen(p, host) {
      bound = await port.listen(p, host);
      return bound;
    },
    close: () => port.close(),
  };
}
