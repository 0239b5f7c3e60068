/**
 * The intercom's signalling over the JT/T 808 gateway (talk.ts `TalkSignalling`): 0x9101 with data
 * type 2 (two-way intercom) or 4 (centre broadcast) for the intercom channel, 0x9102 command 4
 * "close two-way intercom" or 0 "close" to end it. The terminal's 0x0001 decides like live video's.
 */
import { LIVE_COMMAND, LIVE_DATA } from '../../gateway/jt808/index.ts';
import type { LiveRefusal } from '../../media/media-hub.ts';
import type { TalkMode, TalkSignalling, TalkTarget } from '../../media/talk.ts';
import type { CommandSender, MediaAddress } from './signalling.ts';

/** 0x9102 close type: 0 audio and video, 1 audio only, 2 video only. */
const CLOSE_AUDIO_ONLY = 1;

const COMMAND_TIMEOUT_MS = 8000;

export function gatewayTalkSignalling(gateway: CommandSender, media: () => MediaAddress): TalkSignalling {
  return {
    async open(t: TalkTarget, mode: TalkMode) {
      const { host, tcpPort } = media();
      const dataType = mode === 'talk' ? LIVE_DATA.INTERCOM : LIVE_DATA.BROADCAST;
      // Stream type 0 (main): terminals ignore it for audio-only data types.
      const outcome = await gateway.sendCommand(t.vehicleId, { msgId: 0x9101, host, tcpPort, udpPort: 0, channel: t.channel, dataType, streamType: 0 }, COMMAND_TIMEOUT_MS);
      const refusal: LiveRefusal | null = outcome.kind === 'offline' ? 'deviceOffline' : outcome.kind === 'timeout' ? 'noResponse' : outcome.result !== 0 ? 'connectFailed' : null;
      if (refusal) throw refusal;
    },
    async close(t: TalkTarget, mode: TalkMode) {
      const command = mode === 'talk' ? LIVE_COMMAND.CLOSE_INTERCOM : LIVE_COMMAND.CLOSE;
      // A broadcast closes its audio only (close type 1): type 0 would also stop live video of the channel.
      const closeType = mode === 'talk' ? 0 : CLOSE_AUDIO_ONLY;
      await gateway.sendCommand(t.vehicleId, { msgId: 0x9102, channel: t.channel, command, closeType, streamType: 0 }, COMMAND_TIMEOUT_MS);
    },
  };
}
