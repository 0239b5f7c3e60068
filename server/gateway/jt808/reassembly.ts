/**
 * Sub-package reassembly (JT/T 808 §4.4.3.2 / 2019 §4.5.3.2). Packages of one message are keyed
 * by terminal phone + message id + package total; the message is complete when every index
 * 1..total has arrived, in any order. Incomplete messages expire after a timeout, and memory is
 * bounded by group count and buffered bytes (oldest activity evicted first).
 */
import type { Jt808Header } from './header.ts';

export interface ReassemblerOptions {
  /** Idle time after which an incomplete message is dropped. @default 30_000 */
  timeoutMs?: number;
  /** Incomplete messages held at once, across all terminals. @default 1024 */
  maxGroups?: number;
  /** Body bytes held at once, across all terminals. @default 4 MiB */
  maxBytes?: number;
}

export interface ReassemblerStats {
  completed: number;
  /** Incomplete messages dropped after the timeout. */
  expired: number;
  /** Incomplete messages dropped to stay within maxGroups / maxBytes. */
  evicted: number;
  /** Repeated packages with identical bytes (retransmissions), ignored. */
  duplicates: number;
  /** Incomplete messages replaced because a package index came again with other bytes. */
  superseded: number;
}

/** A reassembled message: the first package's header with sub-package fields cleared. */
export interface Reassembled {
  header: Jt808Header;
  body: Uint8Array;
}

interface Group {
  parts: Map<number, Uint8Array>;
  bytes: number;
  lastSeen: number;
  first: Jt808Header | undefined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class Reassembler {
  readonly stats: ReassemblerStats = { completed: 0, expired: 0, evicted: 0, duplicates: 0, superseded: 0 };
  private readonly timeoutMs: number;
  private readonly maxGroups: number;
  private readonly maxBytes: number;
  /** Insertion order = least recent activity first (a touched group is re-inserted). */
  private readonly groups = new Map<string, Group>();
  private heldBytes = 0;

  constructor(options: ReassemblerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxGroups = options.maxGroups ?? 1024;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  }

  /** Incomplete messages held. */
  get size(): number {
    return this.groups.size;
  }

  /** Body bytes held. */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Adds one package (header with packageTotal/packageIndex, and its body). Returns the whole
   * message once the last missing package arrives, else null. Bodies are kept by reference.
   */
  push(header: Jt808Header, body: Uint8Array, now: number = Date.now()): Reassembled | null {
    this.sweep(now);
    const total = header.packageTotal;
    const index = header.packageIndex;
    if (total < 1 || index < 1 || index > total) return null;
    const key = `${header.phone}:${header.msgId}:${total}`;
    let group = this.groups.get(key);
    if (group) {
      const previous = group.parts.get(index);
      if (previous) {
        if (sameBytes(previous, body)) {
          this.stats.duplicates++;
          group.lastSeen = now;
          return null;
        }
        // Same index, other bytes: the terminal started the message again.
        this.drop(key, group);
        this.stats.superseded++;
        group = undefined;
      } else {
        this.groups.delete(key);
      }
    }
    if (body.length > this.maxBytes) {
      this.stats.evicted++;
      return null;
    }
    group ??= { parts: new Map(), bytes: 0, lastSeen: now, first: undefined };
    group.parts.set(index, body);
    group.bytes += body.length;
    group.lastSeen = now;
    if (index === 1) group.first = header;
    this.heldBytes += body.length;
    this.groups.set(key, group);

    if (group.parts.size === total) {
      this.drop(key, group);
      this.stats.completed++;
      return { header: this.wholeHeader(group), body: this.join(group, total) };
    }
    this.enforceBounds();
    return null;
  }

  /** Drops incomplete messages idle for longer than the timeout; returns how many. */
  sweep(now: number = Date.now()): number {
    let n = 0;
    for (const [key, group] of this.groups) {
      if (now - group.lastSeen < this.timeoutMs) break; // ordered by activity
      this.drop(key, group);
      n++;
    }
    this.stats.expired += n;
    return n;
  }

  clear(): void {
    this.groups.clear();
    this.heldBytes = 0;
  }

  /** Evicts from the least recently active; a message too big for maxBytes alone goes too. */
  private enforceBounds(): void {
    for (const [key, group] of this.groups) {
      if (this.groups.size <= this.maxGroups && this.heldBytes <= this.maxBytes) return;
      this.drop(key, group);
      this.stats.evicted++;
    }
  }

  private drop(key: string, group: Group): void {
    this.groups.delete(key);
    this.heldBytes -= group.bytes;
  }

  private wholeHeader(group: Group): Jt808Header {
    const first = group.first!;
    return { ...first, subpackage: false, packageTotal: 0, packageIndex: 0, bodyLength: group.bytes };
  }

  private join(group: Group, total: number): Uint8Array {
    const out = new Uint8Array(group.bytes);
    let o = 0;
    for (let i = 1; i <= total; i++) {
      const part = group.parts.get(i)!;
      out.set(part, o);
      o += part.length;
    }
    return out;
  }
}
