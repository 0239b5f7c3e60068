/**
 * A simulated terminal's own log (issue 17, devlogcommand): its recent link activity — frames it sent
 * and received (id, serial), connections opened and closed — kept in a small ring, and its answer to
 * the platform's device log request (0x8900 type 0xF1 → 0x0900 type 0xF1, gateway/jt808/transparent.ts):
 * the last N lines of that ring, oldest first, as a real terminal uploads its log file.
 *
 * Memory: the ring is 32 entries in typed arrays (~420 bytes per terminal), so 100,000 simulated
 * terminals hold ~42 MB; a real unit keeps far more, a simulator only needs "what really happened".
 */
import { encodeGbk } from '../gateway/jt808/bytes.ts';
import { DEVLOG_TYPE, devlogLinesWanted, type TransparentDown } from '../gateway/jt808/transparent.ts';
import type { Jt808MessageInput } from '../gateway/jt808/messages.ts';

export const ACTIVITY_ENTRIES = 32;
const KIND = ['TX', 'RX', 'CONNECT', 'CLOSE'] as const;
export type ActivityKind = 0 | 1 | 2 | 3;

export class ActivityLog {
  private readonly times = new Float64Array(ACTIVITY_ENTRIES);
  /** msgId << 16 | serial */
  private readonly codes = new Uint32Array(ACTIVITY_ENTRIES);
  private readonly kinds = new Uint8Array(ACTIVITY_ENTRIES);
  private next = 0;
  private count = 0;

  add(time: number, kind: ActivityKind, msgId = 0, serial = 0): void {
    const i = this.next;
    this.times[i] = time;
    this.codes[i] = ((msgId & 0xffff) * 0x10000) + (serial & 0xffff);
    this.kinds[i] = kind;
    this.next = (i + 1) % ACTIVITY_ENTRIES;
    if (this.count < ACTIVITY_ENTRIES) this.count++;
  }

  /** The last `n` entries as text lines, oldest first (China time, as the terminal's clock runs). */
  lines(n: number): string[] {
    const take = Math.min(n, this.count);
    const out: string[] = [];
    for (let k = take; k > 0; k--) {
      const i = (this.next - k + ACTIVITY_ENTRIES) % ACTIVITY_ENTRIES;
      const t = new Date(this.times[i]! + 8 * 3_600_000).toISOString().replace('T', ' ').slice(0, 23);
      const kind = KIND[this.kinds[i]!]!;
      const code = this.codes[i]!;
      if (kind === 'TX' || kind === 'RX') out.push(`${t} ${kind} 0x${Math.floor(code / 0x10000).toString(16).padStart(4, '0')} serial=${code & 0xffff}`);
      else out.push(`${t} ${kind}`);
    }
    return out;
  }
}

/**
 * The answer to a 0x8900: a device log request gets its 0x0900 (request serial + the log); any other
 * transparent type is not something this terminal has a peripheral for (null: answer 0x0001 result 3).
 */
export function devlogAnswer(log: ActivityLog, request: TransparentDown, requestSerial: number): Jt808MessageInput | null {
  const wanted = request.type === DEVLOG_TYPE ? devlogLinesWanted(request) : null;
  if (wanted === null) return null;
  const text = encodeGbk(log.lines(wanted).join('\n'));
  const data = new Uint8Array(2 + text.length);
  data[0] = requestSerial >> 8;
  data[1] = requestSerial & 0xff;
  data.set(text, 2);
  return { msgId: 0x0900, type: DEVLOG_TYPE, data };
}
