/**
 * Sub-package reassembly (JT/T 808-2013 §4.4.3.2 / 2019 §4.5.3.2) for ONE connection: the gateway's
 * terminal session owns one, and feeds it only packages of terminals authenticated on that
 * connection, so a stranger can neither complete nor poison another terminal's message.
 *
 * A message is keyed by phone + message id + the serial of its first package: the packages of one
 * message carry consecutive serials (package k has first + k - 1, wrapping at 0xffff), so two
 * messages of the same id in flight never mix, and a package that names another total under the same
 * key is a different message (the old one is dropped as superseded).
 *
 * Bounded: packages per message, messages in flight, bytes held (per connection, and across all
 * connections through a shared `ReassemblyBudget`), and time. A message that stops growing is asked
 * for its missing packages again (`tick` answers what to put in a 0x8003), a few rounds at most; one
 * still incomplete after that, or older than `maxAgeMs`, is abandoned and counted.
 */
import type { Jt808Header } from './header.ts';

export interface ReassemblerOptions {
  /** Packages one message may have; more is refused (1,024 × 1,023 bytes ≈ 1 MiB). @default 1024 */
  maxParts?: number;
  /** Incomplete messages held at once; the least recently active is evicted beyond. @default 8 */
  maxMessages?: number;
  /** Body bytes held at once by this reassembler. @default 2 MiB */
  maxBytes?: number;
  /** Silence after which the missing packages are asked for again (0x8003). @default 2_000 */
  resendAfterMs?: number;
  /** 0x8003 rounds per message before it is abandoned. @default 2 */
  maxResendRounds?: number;
  /** A message not complete this long after its first package arrived is abandoned. @default 60_000 */
  maxAgeMs?: number;
  /** Bytes shared by every reassembler of a gateway (bounds the sum over connections). */
  budget?: ReassemblyBudget;
}

/** A byte budget shared by many reassemblers (one per connection). */
export class ReassemblyBudget {
  held = 0;
  constructor(readonly maxBytes: number) {}
}

export interface ReassemblerStats {
  completed: number;
  /** Incomplete messages dropped after their resend rounds or their maximum age. */
  abandoned: number;
  /** Incomplete messages dropped to stay within maxMessages / maxBytes / the shared budget. */
  evicted: number;
  /** Packages refused: more packages than maxParts, or no room even after evicting. */
  refused: number;
  /** Repeated packages with identical bytes (retransmissions), ignored. */
  duplicates: number;
  /** Incomplete messages replaced because a package came again with other bytes or another total. */
  superseded: number;
  /** 0x8003 requests asked for by `tick`. */
  resendRequests: number;
}

/** A reassembled message: the first package's header with sub-package fields cleared. */
export interface Reassembled {
  header: Jt808Header;
  body: Uint8Array;
}

/**
 * What became of one package: the whole message; `held` (waiting for more, or a duplicate);
 * `refused` (bounds: answer the terminal a failure); `invalid` (index 0 or beyond the total).
 */
export type PushResult = Reassembled | 'held' | 'refused' | 'invalid';

/** Missing packages of one message, for a 0x8003 addressed like `header`. */
export interface ResendAsk {
  /** A header of the message (phone, edition, protocol version to address the request). */
  header: Jt808Header;
  firstSerial: number;
  packageIds: number[];
}

interface Group {
  readonly total: number;
  readonly firstSerial: number;
  readonly parts: (Uint8Array | undefined)[];
  count: number;
  bytes: number;
  readonly firstSeen: number;
  lastSeen: number;
  rounds: number;
  /** Header of package 1 once it arrived (the whole message's header), else the latest package's. */
  header: Jt808Header;
  hasFirst: boolean;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Serial of a message's first package, from any package's serial and index. */
export function firstSerialOf(header: Jt808Header): number {
  return (header.serial - header.packageIndex + 1) & 0xffff;
}

export class Reassembler {
  readonly stats: ReassemblerStats = { completed: 0, abandoned: 0, evicted: 0, refused: 0, duplicates: 0, superseded: 0, resendRequests: 0 };
  private readonly maxParts: number;
  private readonly maxMessages: number;
  private readonly maxBytes: number;
  private readonly resendAfterMs: number;
  private readonly maxResendRounds: number;
  private readonly maxAgeMs: number;
  private readonly budget: ReassemblyBudget | undefined;
  /** Insertion order = least recent activity first (a touched group is re-inserted). */
  private readonly groups = new Map<string, Group>();
  private heldBytes = 0;

  constructor(options: ReassemblerOptions = {}) {
    this.maxParts = options.maxParts ?? 1024;
    this.maxMessages = options.maxMessages ?? 8;
    this.maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
    this.resendAfterMs = options.resendAfterMs ?? 2000;
    this.maxResendRounds = options.maxResendRounds ?? 2;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.budget = options.budget;
  }

  /** Incomplete messages held. */
  get size(): number {
    return this.groups.size;
  }

  /** Body bytes held. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Adds one package (header with packageTotal / packageIndex, and its body). Bodies are kept by reference. */
  push(header: Jt808Header, body: Uint8Array, now: number = Date.now()): PushResult {
    const total = header.packageTotal;
    const index = header.packageIndex;
    if (total < 1 || index < 1 || index > total) return 'invalid';
    if (total > this.maxParts) {
      this.stats.refused++;
      return 'refused';
    }
    const firstSerial = firstSerialOf(header);
    const key = `${header.phone}:${header.msgId}:${firstSerial}`;
    let group = this.groups.get(key);
    if (group) {
      const previous = group.parts[index - 1];
      if (group.total !== total || (previous && !sameBytes(previous, body))) {
        // Same first serial, other content: not the message we hold. Start over with this package.
        this.drop(key, group);
        this.stats.superseded++;
        group = undefined;
      } else if (previous) {
        this.stats.duplicates++;
        group.lastSeen = now;
        return 'held';
      } else {
        this.groups.delete(key); // re-inserted below: most recently active last
      }
    }
    if (!this.makeRoom(body.length, group === undefined)) {
      if (group) this.groups.set(key, group);
      this.stats.refused++;
      return 'refused';
    }
    group ??= {
      total, firstSerial, parts: new Array<Uint8Array | undefined>(total), count: 0, bytes: 0,
      firstSeen: now, lastSeen: now, rounds: 0, header, hasFirst: false,
    };
    group.parts[index - 1] = body;
    group.count++;
    group.bytes += body.length;
    group.lastSeen = now;
    if (index === 1) {
      group.header = header;
      group.hasFirst = true;
    } else if (!group.hasFirst) {
      group.header = header;
    }
    this.hold(body.length);
    this.groups.set(key, group);

    if (group.count === total) {
      this.drop(key, group);
      this.stats.completed++;
      return { header: { ...group.header, subpackage: false, packageTotal: 0, packageIndex: 0, bodyLength: group.bytes }, body: this.join(group) };
    }
    return 'held';
  }

  /**
   * Time passes: answers the 0x8003 requests due (messages silent for `resendAfterMs`, each asked at
   * most `maxResendRounds` times) and abandons messages past their rounds or their maximum age.
   */
  tick(now: number = Date.now()): ResendAsk[] {
    const asks: ResendAsk[] = [];
    for (const [key, group] of this.groups) {
      if (now - group.firstSeen >= this.maxAgeMs) {
        this.drop(key, group);
        this.stats.abandoned++;
        continue;
      }
      if (now - group.lastSeen < this.resendAfterMs) continue;
      if (group.rounds >= this.maxResendRounds) {
        this.drop(key, group);
        this.stats.abandoned++;
        continue;
      }
      group.rounds++;
      group.lastSeen = now;
      const packageIds: number[] = [];
      // 2013 carries the count in one byte: ask for the first 255 now, the rest in the next round.
      const limit = group.header.version === 2019 ? 0xffff : 0xff;
      for (let i = 0; i < group.total && packageIds.length < limit; i++) if (!group.parts[i]) packageIds.push(i + 1);
      asks.push({ header: group.header, firstSerial: group.firstSerial, packageIds });
      this.stats.resendRequests++;
    }
    return asks;
  }

  /** Drops the incomplete messages of one terminal (it is no longer authenticated here). */
  dropPhone(phone: string): void {
    const prefix = `${phone}:`;
    for (const [key, group] of this.groups) if (key.startsWith(prefix)) this.drop(key, group);
  }

  /** Drops everything held (the connection closed) and gives the bytes back to the shared budget. */
  clear(): void {
    for (const [key, group] of this.groups) this.drop(key, group);
  }

  /** Evicts least recently active messages until a package of `bytes` (and a new message) fits. */
  private makeRoom(bytes: number, newMessage: boolean): boolean {
    const fits = () =>
      this.heldBytes + bytes <= this.maxBytes &&
      (!this.budget || this.budget.held + bytes <= this.budget.maxBytes) &&
      (!newMessage || this.groups.size < this.maxMessages);
    for (const [key, group] of this.groups) {
      if (fits()) return true;
      this.drop(key, group);
      this.stats.evicted++;
    }
    return fits();
  }

  private hold(bytes: number): void {
    this.heldBytes += bytes;
    if (this.budget) this.budget.held += bytes;
  }

  private drop(key: string, group: Group): void {
    if (!this.groups.delete(key)) return;
    this.heldBytes -= group.bytes;
    if (this.budget) this.budget.held -= group.bytes;
  }

  private join(group: Group): Uint8Array {
    const out = new Uint8Array(group.bytes);
    let o = 0;
    for (const part of group.parts) {
      out.set(part!, o);
      o += part!.length;
    }
    return out;
  }
}
