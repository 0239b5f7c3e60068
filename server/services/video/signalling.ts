/**
 * The media hub's Signalling over the JT/T 808 gateway: 0x9101 asks the terminal to stream a channel
 * to this server's media port, 0x9102 closes it. The terminal's 0x0001 answer decides: result 0
 * accepted; another result, "connection failed"; no answer in time, "no response"; no session,
 * "device offline".
 */
import type { Jt808MessageInput } from '../../gateway/jt808/index.ts';
import { LIVE_COMMAND, LIVE_DATA } from '../../gateway/jt808/index.ts';
import type { ChannelTarget, LiveRefusal, Signalling } from '../../media/media-hub.ts';

/** What this needs of the gateway (Jt808Gateway.sendCommand). */
export interface CommandSender {
  sendCommand(vehicleId: number, message: Jt808MessageInput, timeoutMs?: number): Promise<{ kind: 'reply'; result: number } | { kind: 'offline' } | { kind: 'timeout' }>;
}

export interface MediaAddress {
  /** Address terminals use to reach the media port (MEDIA_PUBLIC_HOST: what a terminal on the road can reach). */
  readonly host: string;
  readonly tcpPort: number;
}

/** A terminal that has not answered 0x9101 in this long is "not responding". */
const COMMAND_TIMEOUT_MS = 8000;

/** `media` is read per request: the port is known only once the media port listens (0 in tests). */
export function gatewaySignalling(gateway: CommandSender, media: () => MediaAddress, withAudio = true): Signalling {
  return {
    async openLive(t: ChannelTarget) {
      const { host, tcpPort } = media();
      const outcome = await gateway.sendCommand(
        t.vehicleId,
        { msgId: 0x9101, host, tcpPort, udpPort: 0, channel: t.channel, dataType: withAudio ? LIVE_DATA.AUDIO_VIDEO : LIVE_DATA.VIDEO, streamType: t.stream },
        COMMAND_TIMEOUT_MS,
      );
      const refusal: LiveRefusal | null = outcome.kind === 'offline' ? 'deviceOffline' : outcome.kind === 'timeout' ? 'noResponse' : outcome.result !== 0 ? 'connectFailed' : null;
      if (refusal) throw refusal;
    },
    async closeLive(t: ChannelTarget) {
      await gateway.sendCommand(t.vehicleId, { msgId: 0x9102, channel: t.channel, command: LIVE_COMMAND.CLOSE, closeType: 0, streamType: t.stream }, COMMAND_TIMEOUT_MS);
    },
  };
}
