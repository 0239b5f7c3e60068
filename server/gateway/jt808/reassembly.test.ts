import { describe, expect, it } from 'vitest';
import { decodeBody, decodeFrame, encodeFrames } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import type { Jt808Header } from './header.ts';
import { toHex } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { decodeMessage, encodeBody, type Jt808Message } from './messages.ts';
import { Reassembler, ReassemblyBudget, type PushResult, type Reassembled } from './reassembly.ts';
import { concat, Gen } from './test-support.ts';

interface Fragment {
  header: Jt808Header;
  body: Uint8Array;
}

/** A blind-area upload too big for one frame, as the packages a terminal would send. */
function bigBatch(seed: number, serial: number, phone = '13912345678'): { message: Jt808Message; fragments: Fragment[] } {
  const gen = new Gen(seed);
  const items = [];
  for (let i = 0; i < 40; i++) items.push(gen.location());
  const message: Jt808Message = { msgId: 0x0704, type: 1, items, invalid: 0 };
  const body = encodeBody(message, 2019);
  const frames = encodeFrames({ msgId: 0x0704, phone, serial, version: 2019 }, body, 500);
  const fragments = new FrameSplitter().split(concat(frames)).map((f) => {
    const r = decodeFrame(f);
    if (r.kind !== 'fragment') throw new Error(`expected a fragment, got ${r.kind}`);
    return { header: r.header, body: r.body };
  });
  return { message, fragments };
}

const whole = (r: PushResult): Reassembled | null => (typeof r === 'object' ? r : null);

describe('Reassembler', () => {
  it('rebuilds a sub-packaged message from packages arriving out of order', () => {
    const { message, fragments } = bigBatch(1, 100);
    expect(fragments.length).toBeGreaterThan(3);
    const r = new Reassembler();
    const order = [...fragments].reverse();
    const results = order.map((f) => r.push(f.header, f.body, 0));
    expect(results.slice(0, -1).every((x) => x === 'held')).toBe(true);
    const done = whole(results.at(-1)!);
    expect(done).not.toBeNull();
    expect(done!.header).toMatchObject({ serial: 100, subpackage: false, packageTotal: 0, packageIndex: 0, version: 2019 });
    const decoded = decodeBody(done!.header, done!.body);
    expect(decoded.kind === 'message' && decoded.message).toEqual(message);
    expect(r.size).toBe(0);
    expect(r.bytes).toBe(0);
    expect(r.stats.completed).toBe(1);
  });

  it('keeps two messages of the same id apart by their first serial (no mixing of interleaved uploads)', () => {
    const a = bigBatch(21, 10);
    const b = bigBatch(22, 300);
    const r = new Reassembler();
    const done: Reassembled[] = [];
    for (let i = 0; i < Math.max(a.fragments.length, b.fragments.length); i++) {
      for (const f of [a.fragments[i], b.fragments[i]]) {
        if (!f) continue;
        const out = whole(r.push(f.header, f.body, 0));
        if (out) done.push(out);
      }
    }
    expect(done.map((d) => d.header.serial)).toEqual([10, 300]);
    const decoded = done.map((d) => decodeBody(d.header, d.body));
    expect(decoded.map((d) => d.kind === 'message' && d.message)).toEqual([a.message, b.message]);
  });

  it('ignores a retransmitted package with identical bytes', () => {
    const { fragments } = bigBatch(2, 1);
    const r = new Reassembler();
    const [first, ...rest] = fragments;
    r.push(first!.header, first!.body, 0);
    expect(r.push(first!.header, first!.body, 0)).toBe('held');
    let done = null;
    for (const f of rest) done = whole(r.push(f.header, f.body, 0)) ?? done;
    expect(done).not.toBeNull();
    expect(r.stats.duplicates).toBe(1);
  });

  it('a package with the same first serial but other bytes replaces the held message (an injected part never joins)', () => {
    const { fragments } = bigBatch(3, 1);
    const r = new Reassembler();
    const forged = fragments[0]!.body.slice();
    forged[2] = 0;
    r.push(fragments[0]!.header, forged, 0);
    r.push(fragments[0]!.header, fragments[0]!.body, 0);
    expect(r.stats.superseded).toBe(1);
    let done = null;
    for (const f of fragments.slice(1)) done = whole(r.push(f.header, f.body, 0)) ?? done;
    const decoded = done && decodeBody(done.header, done.body);
    expect(decoded?.kind === 'message' && decoded.message.msgId === 0x0704 && decoded.message.type).toBe(1);
  });

  it('answers invalid for index 0 or an index beyond the total, refused beyond maxParts', () => {
    const { fragments } = bigBatch(4, 1);
    const r = new Reassembler({ maxParts: 2 });
    const f = fragments[0]!;
    expect(r.push({ ...f.header, packageIndex: 0 }, f.body, 0)).toBe('invalid');
    expect(r.push({ ...f.header, packageIndex: f.header.packageTotal + 1 }, f.body, 0)).toBe('invalid');
    expect(r.push(f.header, f.body, 0)).toBe('refused');
    expect(r.size).toBe(0);
  });

  it('asks for the missing packages after a silence, then abandons the message after its rounds', () => {
    const { fragments } = bigBatch(5, 7);
    const r = new Reassembler({ resendAfterMs: 2000, maxResendRounds: 2 });
    const lost = [2, 4];
    fragments.forEach((f, i) => {
      if (!lost.includes(i + 1)) r.push(f.header, f.body, 1000);
    });
    expect(r.tick(2500)).toEqual([]);
    const asks = r.tick(3000);
    expect(asks).toHaveLength(1);
    expect(asks[0]).toMatchObject({ firstSerial: 7, packageIds: lost });
    expect(asks[0]!.header.phone).toBe('13912345678');
    expect(r.tick(4000)).toEqual([]); // the silence starts again after a request
    expect(r.tick(5000)).toHaveLength(1);
    expect(r.tick(7000)).toEqual([]);
    expect(r.stats.abandoned).toBe(1);
    expect(r.stats.resendRequests).toBe(2);
    expect(r.size).toBe(0);
    expect(r.bytes).toBe(0);
    // A late package starts a new, incomplete message: the abandoned one never completes.
    expect(r.push(fragments[1]!.header, fragments[1]!.body, 7001)).toBe('held');
  });

  it('completes once the resent packages arrive', () => {
    const { message, fragments } = bigBatch(6, 65534); // serials wrap past 0xffff
    const r = new Reassembler();
    for (const f of fragments.slice(1)) r.push(f.header, f.body, 0);
    const [ask] = r.tick(2000);
    expect(ask!.packageIds).toEqual([1]);
    const done = whole(r.push(fragments[0]!.header, fragments[0]!.body, 2100));
    expect(done!.header.serial).toBe(65534);
    const decoded = decodeBody(done!.header, done!.body);
    expect(decoded.kind === 'message' && decoded.message).toEqual(message);
  });

  it('abandons a message older than maxAgeMs even while it keeps trickling', () => {
    const { fragments } = bigBatch(7, 1);
    const r = new Reassembler({ maxAgeMs: 10_000, resendAfterMs: 2000 });
    r.push(fragments[0]!.header, fragments[0]!.body, 0);
    r.push(fragments[1]!.header, fragments[1]!.body, 9000);
    r.tick(10_000);
    expect(r.stats.abandoned).toBe(1);
    expect(r.size).toBe(0);
  });

  it('keeps memory bounded: messages in flight, bytes, and a budget shared across reassemblers', () => {
    const r = new Reassembler({ maxMessages: 2 });
    const uploads = [1, 100, 200].map((serial, i) => bigBatch(10 + i, serial));
    for (const t of uploads) r.push(t.fragments[0]!.header, t.fragments[0]!.body, 0);
    expect(r.size).toBe(2);
    expect(r.stats.evicted).toBe(1);

    const bytesCapped = new Reassembler({ maxBytes: 600 });
    for (const f of uploads[0]!.fragments) expect(bytesCapped.push(f.header, f.body, 0)).not.toBeTypeOf('object');
    expect(bytesCapped.bytes).toBeLessThanOrEqual(600);

    const budget = new ReassemblyBudget(1200);
    const a = new Reassembler({ budget });
    const b = new Reassembler({ budget });
    for (const f of uploads[1]!.fragments.slice(0, 2)) a.push(f.header, f.body, 0);
    for (const f of uploads[2]!.fragments.slice(0, 2)) b.push(f.header, f.body, 0);
    expect(budget.held).toBeLessThanOrEqual(1200);
    expect(b.stats.refused).toBeGreaterThan(0);
    a.clear();
    b.clear();
    expect(budget.held).toBe(0);
  });
});

describe('0x8003 resend request layout', () => {
  it('writes the count as a BYTE in 2013 and a WORD in 2019, and decodes back', () => {
    const msg = { msgId: 0x8003 as const, firstSerial: 0x0102, packageIds: [2, 5] };
    expect(toHex(encodeBody(msg, 2013))).toBe('0102020002' + '0005');
    expect(toHex(encodeBody(msg, 2019))).toBe('01020002' + '0002' + '0005');
    for (const version of [2013, 2019] as const) {
      const body = encodeBody(msg, version);
      expect(decodeMessage(0x8003, version, body, 0, body.length)).toEqual(msg);
    }
    // 2013 cannot carry more than 255 ids in one request.
    expect(() => encodeBody({ ...msg, packageIds: Array.from({ length: 256 }, (_, i) => i + 1) }, 2013)).toThrow(Jt808Error);
  });
});
