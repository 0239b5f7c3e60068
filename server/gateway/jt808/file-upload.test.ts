import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { decodeFrame, encodePacket } from './codec.ts';
import { FrameSplitter } from './framing.ts';
import type { FileUploadMessage } from './file-upload.ts';
import { decodeMessage, encodeBody, isSupported, type Jt808MessageInput } from './messages.ts';

// 2026-11-22 08:30:00 and 08:45:30 China time (GMT+8).
const T0 = Date.UTC(2026, 10, 22, 0, 30);
const T1 = Date.UTC(2026, 10, 22, 0, 45, 30);

function roundTrip(msg: FileUploadMessage, version: 2013 | 2019 = 2013): FileUploadMessage {
  const body = encodeBody(msg as Jt808MessageInput, version);
  return decodeMessage(msg.msgId, version, body, 0, body.length) as FileUploadMessage;
}

const request: FileUploadMessage = {
  msgId: 0x9206, host: '10.0.0.5', port: 7613, username: 'u17', password: 'pw', path: '/', channel: 2, startTime: T0, endTime: T1,
  alarmFlags: 0x0000_0010_0000_0002n, mediaType: 0, streamType: 1, storageType: 1, conditions: 7,
};

describe('JT/T 1078 file upload messages', () => {
  it('encodes a file upload request (0x9206) byte for byte: length-prefixed address, user, password and path', () => {
    expect(toHex(encodeBody(request as Jt808MessageInput))).toBe(
      '08' + '31302e302e302e35' + '1dbd' + '03' + '753137' + '02' + '7077' + '01' + '2f' + '02' +
        '261122083000' + '261122084530' + '00000010' + '00000002' + '00' + '01' + '01' + '07',
    );
  });

  it('reads a completion notice (0x1206) and encodes an upload control (0x9207)', () => {
    const bytes = fromHex('002a01');
    expect(decodeMessage(0x1206, 2013, bytes, 0, bytes.length)).toEqual({ msgId: 0x1206, replySerial: 42, result: 1 });
    expect(toHex(encodeBody({ msgId: 0x9207, replySerial: 0x1234, command: 2 }))).toBe('123402');
  });

  it('round-trips all three in both editions, a Chinese path included', () => {
    for (const version of [2013, 2019] as const) {
      expect(roundTrip(request, version)).toEqual(request);
      const chinese: FileUploadMessage = { ...request, path: '/录像/任务17', username: '', password: '' };
      expect(roundTrip(chinese, version)).toEqual(chinese);
      expect(roundTrip({ msgId: 0x1206, replySerial: 65535, result: 0 }, version)).toEqual({ msgId: 0x1206, replySerial: 65535, result: 0 });
      expect(roundTrip({ msgId: 0x9207, replySerial: 9, command: 1 }, version)).toEqual({ msgId: 0x9207, replySerial: 9, command: 1 });
    }
  });

  it('is a supported id that travels in a whole frame', () => {
    for (const id of [0x9206, 0x1206, 0x9207]) expect(isSupported(id)).toBe(true);
    const frame = encodePacket({ phone: '13800138000', serial: 5, version: 2013 }, { msgId: 0x1206, replySerial: 4, result: 0 });
    const bodies = new FrameSplitter().split(frame);
    expect(bodies).toHaveLength(1);
    const r = decodeFrame(bodies[0]!);
    expect(r.kind).toBe('message');
    if (r.kind === 'message') expect(r.message).toEqual({ msgId: 0x1206, replySerial: 4, result: 0 });
  });

  it('refuses truncated bodies, trailing bytes, an empty server address and an over-long path', () => {
    expect(() => decodeMessage(0x1206, 2013, fromHex('002a'), 0, 2)).toThrow(Jt808Error);
    expect(() => decodeMessage(0x9207, 2013, fromHex('00010200'), 0, 4)).toThrow(/trailing/);
    const body = encodeBody(request as Jt808MessageInput);
    expect(() => decodeMessage(0x9206, 2013, body, 0, body.length - 1)).toThrow(Jt808Error);
    const noHost = fromHex('00' + toHex(body).slice(2 + 16));
    expect(() => decodeMessage(0x9206, 2013, noHost, 0, noHost.length)).toThrow(/server address/);
    expect(() => encodeBody({ ...request, path: 'x'.repeat(256) } as Jt808MessageInput)).toThrow(/upload path/);
    expect(() => encodeBody({ ...request, host: '' } as Jt808MessageInput)).toThrow(/server address/);
  });
});
