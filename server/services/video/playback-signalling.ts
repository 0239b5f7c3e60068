/**
 * The playback hub's signalling over the JT/T 808 gateway (JT/T 1078 §5.5): 0x9201 asks the terminal
 * to play a recording to the playback port and is answered with 0x1205 (the resources it plays),
 * 0x9202 controls it (pause, resume, fast forward, seek, stop), and 0x9205 → 0x1205 lists recordings.
 * Outcomes map to the spec's video messages: no session "device offline", no answer "no response",
 * a refusal "connection failed".
 */
import type { Jt808MessageInput } from '../../gateway/jt808/index.ts';
import { PLAYBACK_COMMAND, type ResourceItem, type ResourceList } from '../../gateway/jt808/media-signalling.ts';
import { speedCode, type PlaybackControlRequest } from '../../../domain/video/playback.ts';
import type { PlaybackRefusal, PlaybackSignalling, PlaybackTarget } from '../../media/playback-hub.ts';
import type { CommandSender, MediaAddress } from './signalling.ts';

/** What this needs of the gateway (Jt808Gateway.request and sendCommand). */
export interface PlaybackGateway extends CommandSender {
  request(vehicleId: number, message: Jt808MessageInput, answerId: number, timeoutMs?: number): Promise<
    { kind: 'answer'; message: unknown } | { kind: 'reply'; result: number } | { kind: 'offline' } | { kind: 'timeout' }
  >;
}

/** A terminal that has not answered in this long is "not responding" (a list over a week of files takes a DVR a while). */
const ANSWER_TIMEOUT_MS = 10_000;
const COMMAND_TIMEOUT_MS = 8000;

export interface ResourceSearch {
  /** 0 = every channel. */
  channel: number;
  startTime: number;
  endTime: number;
  /** 0n = any; else recordings with one of these alarm bits. */
  alarmFlags: bigint;
}

/** 0x9205 → 0x1205: the terminal's recordings; rejects with a PlaybackRefusal. */
export async function queryResources(gateway: PlaybackGateway, vehicleId: number, q: ResourceSearch): Promise<ResourceItem[]> {
  const outcome = await gateway.request(
    vehicleId,
    { msgId: 0x9205, channel: q.channel, startTime: q.startTime, endTime: q.endTime, alarmFlags: q.alarmFlags, mediaType: 0, streamType: 0, storageType: 0 },
    0x1205,
    ANSWER_TIMEOUT_MS,
  );
  if (outcome.kind === 'answer') return (outcome.message as ResourceList).items;
  throw refusalOf(outcome);
}

function refusalOf(outcome: { kind: 'reply'; result: number } | { kind: 'offline' } | { kind: 'timeout' }): PlaybackRefusal {
  return outcome.kind === 'offline' ? 'deviceOffline' : outcome.kind === 'timeout' ? 'noResponse' : 'connectFailed';
}

/** `media` is read per request: the playback port is known only once it listens (0 in tests). */
export function gatewayPlayback(gateway: PlaybackGateway, media: () => MediaAddress): PlaybackSignalling {
  const command = async (t: PlaybackTarget, command: number, speed: number, seekTime: number): Promise<void> => {
    const outcome = await gateway.sendCommand(t.vehicleId, { msgId: 0x9202, channel: t.channel, command, speed, seekTime }, COMMAND_TIMEOUT_MS);
    if (outcome.kind !== 'reply') throw refusalOf(outcome);
    if (outcome.result !== 0) throw 'controlFailed';
  };
  return {
    async open(t) {
      const { host, tcpPort } = media();
      const outcome = await gateway.request(
        t.vehicleId,
        { msgId: 0x9201, host, tcpPort, udpPort: 0, channel: t.channel, mediaType: 0, streamType: 0, storageType: 0, mode: 0, speed: 0, startTime: t.startTime, endTime: t.endTime },
        0x1205,
        ANSWER_TIMEOUT_MS,
      );
      if (outcome.kind === 'answer') return (outcome.message as ResourceList).items;
      throw refusalOf(outcome);
    },
    control(t, request: PlaybackControlRequest) {
      switch (request.action) {
        case 'pause':
          return command(t, PLAYBACK_COMMAND.PAUSE, 0, Number.NaN);
        case 'resume':
          return command(t, PLAYBACK_COMMAND.PLAY, 0, Number.NaN);
        case 'speed':
          return command(t, PLAYBACK_COMMAND.FAST_FORWARD, speedCode(request.speed), Number.NaN);
        case 'seek':
          return command(t, PLAYBACK_COMMAND.SEEK, 0, request.time);
      }
    },
    stop: (t) => command(t, PLAYBACK_COMMAND.STOP, 0, Number.NaN),
  };
}
