import { describe, expect, it } from 'vitest';
import { toHex } from './bytes.ts';
import { decodeFrame, encodePacket } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import type { ProtocolEdition } from './header.ts';
import { Gen } from './test-support.ts';

describe('round trip', () => {
  for (const version of [2013, 2019] as const satisfies readonly ProtocolEdition[]) {
    it(`decodes every random valid ${version} message back to what was encoded`, () => {
      const gen = new Gen(version);
      const splitter = new FrameSplitter();
      for (let i = 0; i < 3000; i++) {
        const message = gen.message(version);
        const init = { phone: gen.phone(version), serial: gen.int(0, 0xffff), version };
        const wire = encodePacket(init, message);
        const bodies = splitter.split(wire);
        expect(bodies).toHaveLength(1);
        const r = decodeFrame(bodies[0]!);
        if (r.kind !== 'message') throw new Error(`case ${i}: ${r.kind} ${r.kind === 'error' ? r.error.message : ''}`);
        expect(r.message).toEqual(message);
        expect(r.header).toMatchObject({ msgId: message.msgId, phone: init.phone, serial: init.serial, version, subpackage: false });
        // And the decoded value encodes to the same bytes (the encoding is canonical).
        expect(toHex(encodePacket(r.header, r.message))).toBe(toHex(wire));
      }
      expect(splitter.stats.frames).toBe(3000);
    });
  }
});
