/**
 * The stream worker's core (no Worker, no socket: tests drive it directly). Decodes push messages into
 * the FleetState, derives offline, and produces frames into two alternating buffer sets that travel to
 * the main thread and back (double buffering), plus stats.
 */
import type { DisplayCrs } from '../../../domain/geo/gcj02.ts';
import { PushDecoder } from '../../../proto/codec.ts';
import { columnsFromJson, type JsonDirectory, type JsonEnvelope, type JsonPositions } from '../../../proto/json.ts';
import { FrameError } from '../../../proto/wire.ts';
import { allocateFrameBuffers, FleetState, type FrameBuffers } from './fleet-state.ts';
import type { LiveFrame, LiveStats } from './protocol.ts';

/** Two buffer sets: one on the main thread (deck.gl uploading it), one being filled here. */
const BUFFER_SETS = 2;

export class StreamCore {
  readonly fleet = new FleetState();
  /** Push messages that could not be decoded. */
  errors = 0;
  lastError = '';
  messages = 0;
  private readonly decoder = new PushDecoder();
  /** serverTime − local time of the latest positions frame: offline is judged on the server's clock. */
  private clockOffset = 0;
  private changed = true;
  private readonly free: FrameBuffers[] = [];
  private allocated = 0;
  onAlarm: ((data: unknown) => void) | undefined;
  /** The `alarmReplay` message every connect starts with (the alarm cursor and any catch-up). */
  onAlarmReplay: ((data: unknown) => void) | undefined;
  /** An operator in scope handled alarms or took a board step (`alarmHandled`). */
  onAlarmHandled: ((data: unknown) => void) | undefined;
  /** This user's unread notice count changed (`noticeUnread`, issue 19: sent to this user's consoles only). */
  onNoticeUnread: ((data: unknown) => void) | undefined;
  /** The dictionary or the system parameters changed (`configChanged`, issue 19): `{topic, version}`. */
  onConfigChanged: ((data: unknown) => void) | undefined;

  /** One websocket message (binary or JSON text) received at local time `now`. Bad input is counted, state kept. */
  handleMessage(data: ArrayBuffer | Uint8Array | string, now: number): void {
    this.messages++;
    try {
      if (typeof data === 'string') this.handleJson(data, now);
      else this.handleBinary(data instanceof Uint8Array ? data : new Uint8Array(data), now);
    } catch (e) {
      this.errors++;
      this.lastError = e instanceof Error ? e.message : String(e);
    }
  }

  /** A fresh connection: the server will send a directory and a snapshot (full resync). */
  handleReconnect(): void {
    this.changed = true;
  }

  serverNow(now: number): number {
    return now + this.clockOffset;
  }

  /**
   * The next frame at local time `now`, or null when nothing moved or both buffer sets are still on
   * the main thread. Transfer the answer's buffers and get them back through `release`.
   */
  takeFrame(now: number): LiveFrame | null {
    if (!this.changed && now > this.fleet.glidingUntil) return null;
    let buf = this.free.pop();
    if (!buf) {
      if (this.allocated >= BUFFER_SETS) return null;
      this.allocated++;
      buf = allocateFrameBuffers(Math.max(1024, this.fleet.count));
    }
    buf = this.fleet.fillFrame(buf, now);
    this.changed = false;
    return { type: 'frame', count: this.fleet.count, ...buf };
  }

  /** The main thread is done with a frame: its buffers take the next one. */
  release(frame: LiveFrame): void {
    if (this.free.length >= BUFFER_SETS) return;
    const { ids, positions, headings, states, alarm } = frame;
    this.free.push({ ids, positions, headings, states, alarm });
  }

  /** Re-derives states (offline after 3 minutes) and counts them. */
  stats(now: number): LiveStats {
    if (this.fleet.deriveStates(this.serverNow(now))) this.changed = true;
    const { counts, byCompany } = this.fleet.counts();
    return { type: 'stats', counts, byCompany, errors: this.errors };
  }

  setDisplayCrs(crs: DisplayCrs): void {
    this.fleet.setDisplayCrs(crs);
    this.changed = true;
  }

  private handleBinary(bytes: Uint8Array, now: number): void {
    const m = this.decoder.decode(bytes);
    switch (m.body.type) {
      case 'positions':
        this.applyPositions(m.body.frame, now);
        break;
      case 'directory':
        this.fleet.applyDirectory(m.body.directory);
        break;
      case 'json':
        if (m.commandType === 'alarm') this.onAlarm?.((m.body.value as { data?: unknown } | null)?.data);
        else if (m.commandType === 'alarmReplay') this.onAlarmReplay?.((m.body.value as { data?: unknown } | null)?.data);
        else if (m.commandType === 'alarmHandled') this.onAlarmHandled?.((m.body.value as { data?: unknown } | null)?.data);
        else if (m.commandType === 'noticeUnread') this.onNoticeUnread?.((m.body.value as { data?: unknown } | null)?.data);
        else if (m.commandType === 'configChanged') this.onConfigChanged?.((m.body.value as { data?: unknown } | null)?.data);
        break;
    }
  }

  private handleJson(text: string, now: number): void {
    const env = JSON.parse(text) as JsonEnvelope<unknown>;
    const data = env?.commandBody?.data;
    if (data === undefined) throw new FrameError('JSON push message has no commandBody.data');
    if (env.commandType === 'positions') this.applyPositions(columnsFromJson(data as JsonPositions), now);
    else if (env.commandType === 'directory') {
      const d = data as JsonDirectory;
      this.fleet.applyDirectory({
        kind: d.kind === 'full' ? 1 : 2,
        vehicleId: Int32Array.from(d.vehicles, (v) => v.vehicleId),
        companyId: Int32Array.from(d.vehicles, (v) => v.companyId),
        plates: d.vehicles.map((v) => v.plate),
        deviceNos: d.vehicles.map((v) => v.deviceNo),
      });
    } else if (env.commandType === 'alarm') this.onAlarm?.(data);
    else if (env.commandType === 'alarmReplay') this.onAlarmReplay?.(data);
    else if (env.commandType === 'alarmHandled') this.onAlarmHandled?.(data);
    else if (env.commandType === 'noticeUnread') this.onNoticeUnread?.(data);
    else if (env.commandType === 'configChanged') this.onConfigChanged?.(data);
  }

  private applyPositions(frame: Parameters<FleetState['applyPositions']>[0], now: number): void {
    if (frame.serverTime > 0) this.clockOffset = frame.serverTime - now;
    this.fleet.applyPositions(frame, now);
    this.fleet.deriveStates(this.serverNow(now));
    this.changed = true;
  }
}
