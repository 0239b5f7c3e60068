import { describe, expect, it } from 'vitest';
import { decodeBody, decodeFrame, encodeFrames } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import type { Jt808Header } from './header.ts';
import { encodeBody, type Jt808Message } from './messages.ts';
import { Reassembler } from './reassembly.ts';
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

describe('Reassembler', () => {
  it('rebuilds a sub-packaged message from packages arriving out of order', () => {
    const { message, fragments } = bigBatch(1, 100);
    expect(fragments.length).toBeGreaterThan(3);
    const r = new Reassembler();
    const order = [...fragments].reverse();
    const results = order.map((f) => r.push(f.header, f.body, 0));
    expect(results.slice(0, -1).every((x) => x === null)).toBe(true);
    const whole = results.at(-1)!;
    expect(whole).not.toBeNull();
    expect(whole!.header).toMatchObject({ serial: 100, subpackage: false, packageTotal: 0, packageIndex: 0, version: 2019 });
    const decoded = decodeBody(whole!.header, whole!.body);
    expect(decoded.kind === 'message' && decoded.message).toEqual(message);
    expect(r.size).toBe(0);
    expect(r.bytes).toBe(0);
    expect(r.stats.completed).toBe(1);
  });

  it('ignores a retransmitted package with identical bytes', () => {
    const { fragments } = bigBatch(2, 1);
    const r = new Reassembler();
    const [first, ...rest] = fragments;
    r.push(first!.header, first!.body, 0);
    r.push(first!.header, first!.body, 0);
    let whole = null;
    for (const f of rest) whole = r.push(f.header, f.body, 0);
    expect(whole).not.toBeNull();
    expect(r.stats.duplicates).toBe(1);
  });

  it('starts over when a package index comes again with different bytes', () => {
    const old = bigBatch(3, 1);
    // The terminal restarts the upload: new serials, and the first package now says "normal batch".
    const fresh = old.fragments.map((f, i) => {
      const body = i === 0 ? f.body.slice() : f.body;
      if (i === 0) body[2] = 0;
      return { header: { ...f.header, serial: f.header.serial + 50 }, body };
    });
    const r = new Reassembler();
    r.push(old.fragments[0]!.header, old.fragments[0]!.body, 0);
    r.push(old.fragments[1]!.header, old.fragments[1]!.body, 0);
    let whole = null;
    for (const f of fresh) whole = r.push(f.header, f.body, 0) ?? whole;
    expect(r.stats.superseded).toBe(1);
    expect(whole?.header.serial).toBe(51);
    const decoded = whole && decodeBody(whole.header, whole.body);
    expect(decoded?.kind === 'message' && decoded.message.msgId === 0x0704 && decoded.message.type).toBe(0);
  });

  it('expires an incomplete message after the timeout so a late package cannot complete it', () => {
    const { fragments } = bigBatch(5, 1);
    const r = new Reassembler({ timeoutMs: 30_000 });
    for (const f of fragments.slice(0, -1)) r.push(f.header, f.body, 1000);
    expect(r.size).toBe(1);
    expect(r.sweep(20_000)).toBe(0);
    expect(r.sweep(31_000)).toBe(1);
    expect(r.stats.expired).toBe(1);
    expect(r.bytes).toBe(0);
    const last = fragments.at(-1)!;
    expect(r.push(last.header, last.body, 31_001)).toBeNull();
  });

  it('keeps memory bounded by evicting the least recently active messages', () => {
    const r = new Reassembler({ maxGroups: 2 });
    const terminals = ['13900000001', '13900000002', '13900000003'].map((phone, i) => bigBatch(10 + i, 1, phone));
    for (const t of terminals) r.push(t.fragments[0]!.header, t.fragments[0]!.body, 0);
    expect(r.size).toBe(2);
    expect(r.stats.evicted).toBe(1);

    const bytesCapped = new Reassembler({ maxBytes: 600 });
    const one = terminals[0]!.fragments;
    for (const f of one) expect(bytesCapped.push(f.header, f.body, 0)).toBeNull();
    expect(bytesCapped.bytes).toBeLessThanOrEqual(600);
  });
});
