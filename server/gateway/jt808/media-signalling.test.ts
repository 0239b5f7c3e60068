import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { decodeMessage, encodeBody, isSupported, type Jt808MessageInput } from './messages.ts';
import type { MediaSignalling } from './media-signalling.ts';

// 2026-11-22 08:30:00 and 09:00:00 China time (GMT+8).
const T0 = Date.UTC(2026, 10, 22, 0, 30);
const T1 = Date.UTC(2026, 10, 22, 1, 0);

function roundTrip(msg: MediaSignalling): MediaSignalling {
  const body = encodeBody(msg as Jt808MessageInput);
  return decodeMessage(msg.msgId, 2013, body, 0, body.length) as MediaSignalling;
}

describe('JT/T 1078 signalling', () => {
  it('encodes the audio/video attributes query (0x9003) as an empty body and reads a 0x1003 field by field (table 11)', () => {
    expect(encodeBody({ msgId: 0x9003 })).toHaveLength(0);
    // G.711A, mono, 8 kHz, 8-bit, frame 320 bytes, audio output, H.264, 1 audio and 6 video channels.
    const bytes = fromHex('06' + '01' + '00' + '00' + '0140' + '01' + '62' + '01' + '06');
    expect(decodeMessage(0x1003, 2013, bytes, 0, bytes.length)).toEqual({
      msgId: 0x1003, audioEncoding: 6, audioChannels: 1, samplingRate: 0, samplingBits: 0, audioFrameLength: 320,
      audioOutput: true, videoEncoding: 98, maxAudioChannels: 1, maxVideoChannels: 6,
    });
    expect(toHex(encodeBody({ msgId: 0x1003, audioEncoding: 6, audioChannels: 1, samplingRate: 0, samplingBits: 0, audioFrameLength: 320, audioOutput: true, videoEncoding: 98, maxAudioChannels: 1, maxVideoChannels: 6 })))
      .toBe('0601000001400162' + '0106');
  });

  it('refuses a truncated 0x1003 (a terminal cannot claim channels with a short body)', () => {
    const short = fromHex('060100000140016201');
    expect(() => decodeMessage(0x1003, 2013, short, 0, short.length)).toThrow(Jt808Error);
  });

  it('encodes a live video request (0x9101) byte for byte', () => {
    const body = encodeBody({ msgId: 0x9101, host: '10.0.0.5', tcpPort: 7612, udpPort: 0, channel: 2, dataType: 1, streamType: 1 });
    // length 8, "10.0.0.5", TCP 7612 = 0x1DBC, UDP 0, channel 2, video only, sub stream.
    expect(toHex(body)).toBe('08' + '31302e302e302e35' + '1dbc' + '0000' + '02' + '01' + '01');
  });

  it('encodes a live control (0x9102) that closes a channel', () => {
    expect(toHex(encodeBody({ msgId: 0x9102, channel: 3, command: 0, closeType: 0, streamType: 0 }))).toBe('03000000');
  });

  it('encodes a resource query (0x9205) with BCD times in China time and 64-bit alarm flags high word first', () => {
    const body = encodeBody({ msgId: 0x9205, channel: 1, startTime: T0, endTime: T1, alarmFlags: 0x0000_0001_0000_0004n, mediaType: 2, streamType: 0, storageType: 0 });
    expect(toHex(body)).toBe('01' + '261122083000' + '261122090000' + '00000001' + '00000004' + '02' + '00' + '00');
  });

  it('reads a terminal resource list (0x1205) with every item', () => {
    const item = '01' + '261122083000' + '261122090000' + '0000000000000000' + '02' + '01' + '01' + '00100000';
    const bytes = fromHex('0007' + '00000002' + item + '02' + item.slice(2));
    const msg = decodeMessage(0x1205, 2013, bytes, 0, bytes.length);
    expect(msg).toMatchObject({ msgId: 0x1205, replySerial: 7 });
    const list = msg as Extract<MediaSignalling, { msgId: 0x1205 }>;
    expect(list.items).toHaveLength(2);
    expect(list.items[0]).toEqual({ channel: 1, startTime: T0, endTime: T1, alarmFlags: 0n, mediaType: 2, streamType: 1, storageType: 1, fileSize: 0x100000 });
    expect(list.items[1]!.channel).toBe(2);
  });

  it('refuses a resource list whose count the body cannot hold, without allocating for it', () => {
    const bytes = fromHex('0001' + 'ffffffff');
    expect(() => decodeMessage(0x1205, 2013, bytes, 0, bytes.length)).toThrow(Jt808Error);
  });

  it('round-trips playback request and control', () => {
    const request: MediaSignalling = { msgId: 0x9201, host: 'media.example.cn', tcpPort: 7612, udpPort: 0, channel: 1, mediaType: 2, streamType: 1, storageType: 0, mode: 0, speed: 1, startTime: T0, endTime: T1 };
    expect(roundTrip(request)).toEqual(request);
    const seek: MediaSignalling = { msgId: 0x9202, channel: 1, command: 5, speed: 0, seekTime: T0 + 60_000 };
    expect(roundTrip(seek)).toEqual(seek);
    const pause: MediaSignalling = { msgId: 0x9202, channel: 1, command: 1, speed: 0, seekTime: NaN };
    expect(roundTrip(pause)).toEqual(pause);
  });

  it('refuses trailing bytes and an empty server address', () => {
    const body = encodeBody({ msgId: 0x9102, channel: 3, command: 0, closeType: 0, streamType: 0 });
    const longer = new Uint8Array([...body, 0]);
    expect(() => decodeMessage(0x9102, 2013, longer, 0, longer.length)).toThrow(/trailing/);
    expect(() => encodeBody({ msgId: 0x9101, host: '', tcpPort: 1, udpPort: 0, channel: 1, dataType: 0, streamType: 0 })).toThrow(Jt808Error);
  });

  it('is known to the codec', () => {
    for (const id of [0x9101, 0x9102, 0x9205, 0x1205, 0x9201, 0x9202]) expect(isSupported(id)).toBe(true);
  });
});
