/**
 * A terminal's channels (issue 12 §4), from what is known about that terminal and nothing else:
 *
 * 1. the device's record (`device_channel`, migration 15: number, name, audio/video), when it lists any;
 * 2. else the terminal's own answer to 0x9003 (JT/T 1078 0x1003): video channels 1..N for its N
 *    physical video channels, unnamed (the answer carries counts, not names); N = 0 is "no camera";
 * 3. else unknown: the terminal never answered and the record lists none.
 *
 * `ChannelDiscovery` asks each terminal once, when it authenticates and nothing is stored for it yet,
 * and keeps every 0x1003 that arrives (asked for or not; a later answer replaces the earlier one).
 */
import type { ChannelKind, DeviceChannel, DeviceChannels } from '../../../domain/video/channels.ts';
import type { StoredAvAttributes } from '../../db/channel-types.ts';
import type { Storage } from '../../db/repositories.ts';
import type { AuthenticatedListener, RequestOutcome, TerminalMessageHandler } from '../../gateway/server.ts';
import type { AvAttributes, Jt808MessageInput } from '../../gateway/jt808/index.ts';

export type { DeviceChannel, DeviceChannels } from '../../../domain/video/channels.ts';

/** What this needs of the gateway (Jt808Gateway). */
export interface DiscoveryGateway {
  onAuthenticated(listener: AuthenticatedListener): void;
  request(vehicleId: number, message: Jt808MessageInput, answerId: number, timeoutMs?: number): Promise<RequestOutcome>;
  handleTerminalMessage(msgId: number, handler: TerminalMessageHandler): void;
}

/** A terminal that has not answered 0x9003 in this long is asked again at its next authentication. */
export const AV_QUERY_TIMEOUT_MS = 10_000;

/** The channels known for a vehicle (see the file comment for the order). */
export async function deviceChannels(storage: Storage, vehicleId: number): Promise<DeviceChannels> {
  const recorded = await storage.channels.recorded(vehicleId);
  if (recorded.length > 0) {
    const order = (k: ChannelKind) => (k === 'video' ? 0 : 1);
    return { source: 'record', reportedTime: null, channels: [...recorded].sort((a, b) => order(a.kind) - order(b.kind) || a.channel - b.channel) };
  }
  const attributes = await storage.channels.attributes(vehicleId);
  if (!attributes) return { source: 'unknown', reportedTime: null, channels: [] };
  const channels: DeviceChannel[] = [];
  for (let n = 1; n <= attributes.maxVideoChannels; n++) channels.push({ channel: n, kind: 'video', name: '' });
  return { source: 'terminal', reportedTime: attributes.reportedTime, channels };
}

export class ChannelDiscovery {
  /** Vehicles asked and not yet settled: a terminal re-authenticating meanwhile is not asked twice. */
  private readonly asking = new Set<number>();

  constructor(
    private readonly storage: Storage,
    private readonly gateway: DiscoveryGateway,
    private readonly clock: () => number = Date.now,
    private readonly log?: { warn(obj: object, msg: string): void },
    private readonly timeoutMs = AV_QUERY_TIMEOUT_MS,
  ) {}

  /** Registers the 0x1003 handler and the authentication listener. */
  start(): this {
    this.gateway.handleTerminalMessage(0x1003, async ({ vehicleId, message }) => {
      await this.keep(vehicleId, message as AvAttributes);
    });
    this.gateway.onAuthenticated((vehicleId) => {
      void this.askIfUnknown(vehicleId).catch((err: unknown) => this.log?.warn({ err, vehicleId }, 'channel discovery: 0x9003 failed'));
    });
    return this;
  }

  private async keep(vehicleId: number, m: AvAttributes): Promise<void> {
    const row: StoredAvAttributes = {
      vehicleId, audioEncoding: m.audioEncoding, audioChannels: m.audioChannels, samplingRate: m.samplingRate, samplingBits: m.samplingBits,
      audioFrameLength: m.audioFrameLength, audioOutput: m.audioOutput, videoEncoding: m.videoEncoding,
      maxAudioChannels: m.maxAudioChannels, maxVideoChannels: m.maxVideoChannels, reportedTime: this.clock(),
    };
    await this.storage.channels.saveAttributes(row);
  }

  /** Asks the terminal with 0x9003 unless its answer is already kept; the 0x1003 handler stores the answer. */
  private async askIfUnknown(vehicleId: number): Promise<void> {
    if (this.asking.has(vehicleId) || (await this.storage.channels.attributes(vehicleId))) return;
    this.asking.add(vehicleId);
    try {
      // The 0x1003 handler keeps the answer; without one in time the terminal is asked at its next authentication.
      await this.gateway.request(vehicleId, { msgId: 0x9003 }, 0x1003, this.timeoutMs);
    } finally {
      this.asking.delete(vehicleId);
    }
  }
}
