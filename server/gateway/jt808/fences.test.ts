/**
 * Area (fence) messages 0x8600–0x8605 (issue 17): bodies laid out field by field from JT/T 808-2019
 * §8.44–§8.49 (tables 57–67) and 2013 §8.38–§8.43, encoded and decoded both ways; the platform's fence
 * turned into the area it sends; truncated or malformed bodies refused with the field named.
 */
import { describe, expect, it } from 'vitest';
import type { Fence } from '../../../domain/fence/types.ts';
import { fromHex, toHex } from './bytes.ts';
import { Jt808Error } from './errors.ts';
import { AREA_ACTION, AREA_BIT, areaRule, fenceDeleteMessage, fenceSetMessage, fenceToArea, type CircleArea } from './fences.ts';
import type { ProtocolEdition } from './header.ts';
import { decodeMessage, encodeBody, isSupported, type Jt808Message, type Jt808MessageInput } from './messages.ts';

const hex = (...fields: string[]): string => fields.join('').replace(/\s+/g, '').toLowerCase();

function decode(msgId: number, body: string, version: ProtocolEdition): Jt808Message | null {
  const b = fromHex(body);
  return decodeMessage(msgId, version, b, 0, b.length);
}

function both(msg: Jt808MessageInput, body: string, version: ProtocolEdition) {
  expect(toHex(encodeBody(msg, version))).toBe(body);
  expect(decode(msg.msgId, body, version)).toEqual(msg);
}

const circle: CircleArea = {
  id: 7, attribute: AREA_BIT.BY_TIME | AREA_BIT.SPEED_LIMIT | AREA_BIT.IN_ALARM_DRIVER | AREA_BIT.IN_ALARM_PLATFORM,
  center: { lat: 22.543096, lng: 114.057865 }, radius: 500,
  startTime: '000000083000', endTime: '000000180000', maxSpeed: 60, overspeedSeconds: 10, nightMaxSpeed: 40, name: '园区',
};

describe('area messages', () => {
  it('every id of the family is supported', () => {
    for (const id of [0x8600, 0x8601, 0x8602, 0x8603, 0x8604, 0x8605]) expect(isSupported(id)).toBe(true);
  });

  it('0x8600 (2019): action, count, id, attribute, centre ×10^6, radius, BCD window, speed, duration, night speed, name', () => {
    both({ msgId: 0x8600, action: AREA_ACTION.APPEND, areas: [circle] }, hex(
      '01', // setting attribute: append
      '01', // area count
      '00000007', // area id
      '000f', // attribute: by time | speed limit | in → driver | in → platform
      '0157faf8', // latitude 22.543096 × 10^6 = 22543096
      '06cc6289', // longitude 114.057865 × 10^6 = 114057865
      '000001f4', // radius 500 m
      '000000083000', // start: every day 08:30:00
      '000000180000', // end 18:00:00
      '003c', // max speed 60 km/h
      '0a', // overspeed duration 10 s
      '0028', // night max speed 40 km/h
      '0004', 'd4b0c7f8', // name length, 园区 in GBK
    ), 2019);
  });

  it('0x8600 (2013): no night speed and no name; no time or speed fields when bits 0 and 1 are clear', () => {
    const plain: CircleArea = { ...circle, attribute: AREA_BIT.OUT_ALARM_PLATFORM, startTime: null, endTime: null, maxSpeed: null, overspeedSeconds: null, nightMaxSpeed: null, name: '' };
    both({ msgId: 0x8600, action: AREA_ACTION.UPDATE, areas: [plain] }, hex('00', '01', '00000007', '0020', '0157faf8', '06cc6289', '000001f4'), 2013);
  });

  it('south and west coordinates set bits 6 and 7 and travel unsigned', () => {
    const south: CircleArea = { ...circle, attribute: 0, center: { lat: -33.868820, lng: -70.5 }, startTime: null, endTime: null, maxSpeed: null, overspeedSeconds: null, nightMaxSpeed: null, name: '' };
    const body = toHex(encodeBody({ msgId: 0x8600, action: 1, areas: [south] }, 2013));
    expect(body).toBe(hex('01', '01', '00000007', '00c0', '0204cc14', '0433bea0', '000001f4'));
    expect(decode(0x8600, body, 2013)).toEqual({ msgId: 0x8600, action: 1, areas: [{ ...south, attribute: AREA_BIT.SOUTH | AREA_BIT.WEST }] });
  });

  it('0x8602 (2019): top-left and bottom-right corners in place of centre and radius', () => {
    const area = {
      id: 0x0102, attribute: AREA_BIT.SPEED_LIMIT, topLeft: { lat: 30, lng: 120 }, bottomRight: { lat: 29.5, lng: 120.5 },
      startTime: null, endTime: null, maxSpeed: 80, overspeedSeconds: 5, nightMaxSpeed: 80, name: 'A',
    };
    both({ msgId: 0x8602, action: AREA_ACTION.MODIFY, areas: [area] }, hex(
      '02', '01', '00000102', '0002',
      '01c9c380', '07270e00', // top-left 30.000000, 120.000000
      '01c22260', '072eaf20', // bottom-right 29.500000, 120.500000
      '0050', '05', '0050', // max speed 80, 5 s, night 80
      '0001', '41', // name "A"
    ), 2019);
  });

  it('0x8604 (2019): one polygon, no setting attribute; the vertices come before night speed and name', () => {
    const area = {
      id: 9, attribute: AREA_BIT.BY_TIME, startTime: '261122080000', endTime: '261122200000', maxSpeed: null, overspeedSeconds: null,
      points: [{ lat: 1, lng: 2 }, { lat: 1.5, lng: 2 }, { lat: 1.5, lng: 2.5 }], nightMaxSpeed: null, name: '',
    };
    both({ msgId: 0x8604, area }, hex(
      '00000009', '0001', '261122080000', '261122200000',
      '0003', // vertex count
      '000f4240 001e8480', '0016e360 001e8480', '0016e360 002625a0',
      '0000', // name length 0
    ), 2019);
    // The 2013 body ends after the vertices.
    both({ msgId: 0x8604, area: { ...area, name: '' } }, hex('00000009', '0001', '261122080000', '261122200000', '0003', '000f4240 001e8480', '0016e360 001e8480', '0016e360 002625a0'), 2013);
  });

  it('0x8601 / 0x8603 / 0x8605 delete: count BYTE then DWORD ids; count 0 deletes all of that kind', () => {
    both({ msgId: 0x8601, ids: [7, 0x0102] }, hex('02', '00000007', '00000102'), 2019);
    both({ msgId: 0x8603, ids: [] }, '00', 2013);
    both({ msgId: 0x8605, ids: [9] }, hex('01', '00000009'), 2019);
  });

  it('bad bodies are protocol errors naming the field', () => {
    expect(() => decode(0x8600, hex('01', '01', '00000007', '0000', '0157faf8'), 2013)).toThrow(Jt808Error);
    expect(() => decode(0x8600, hex('03', '00'), 2013)).toThrow(/setting attribute/);
    expect(() => decode(0x8601, hex('02', '00000007'), 2013)).toThrow(/area id/);
    expect(() => decode(0x8604, hex('00000009', '0000', '0002', '000f4240 001e8480', '0016e360 001e8480'), 2013)).toThrow(/3/);
    expect(() => decode(0x8600, hex('01', '01', '00000007', '0001', '0157faf8', '06cc6289', '000001f4', '0000008a3000', '000000180000'), 2013)).toThrow(/start time/);
    expect(() => decode(0x8605, hex('01', '00000009', 'ff'), 2013)).toThrow(/trailing/);
    expect(() => encodeBody({ msgId: 0x8600, action: 1, areas: [{ ...circle, center: { lat: 1, lng: -1 }, radius: 1 }, { ...circle }] }, 2019)).not.toThrow();
    expect(() => encodeBody({ msgId: 0x8604, area: { ...circle, points: [{ lat: -1, lng: 1 }, { lat: 1, lng: 1 }, { lat: 1, lng: 2 }] } }, 2019)).toThrow(/hemisphere/);
    expect(() => encodeBody({ msgId: 0x8600, action: 1, areas: [{ ...circle, startTime: '8:30' }] }, 2019)).toThrow(/start time/);
  });
});

describe('the platform fence as an area', () => {
  const fence = (geometry: Fence['geometry'], rule: Partial<Fence['rule']> = {}): Fence => ({
    id: 42, companyId: 1, name: '北门', geometry,
    rule: { alarmIn: false, alarmOut: false, forbidIn: false, forbidOut: false, maxSpeed: null, overspeedSeconds: 0, startTime: null, endTime: null, ...rule },
  });

  it('in/out alarms go to driver and platform; a daily window is 000000hhmm00; the speed limit also at night', () => {
    const area = fenceToArea(fence({ shape: 'circle', center: [114.05, 22.54], radius: 300.4 }, { alarmOut: true, forbidIn: true, maxSpeed: 40, overspeedSeconds: 15, startTime: '22:00', endTime: '06:00' }));
    expect(area).toMatchObject({ id: 42, name: '北门', radius: 300, center: { lat: 22.54, lng: 114.05 }, startTime: '000000220000', endTime: '000000060000', maxSpeed: 40, overspeedSeconds: 15, nightMaxSpeed: 40 });
    expect(area.attribute).toBe(AREA_BIT.IN_ALARM_DRIVER | AREA_BIT.IN_ALARM_PLATFORM | AREA_BIT.OUT_ALARM_DRIVER | AREA_BIT.OUT_ALARM_PLATFORM);
    expect(areaRule(area)).toMatchObject({ alarmIn: true, alarmOut: true, maxSpeed: 40, overspeedSeconds: 15, startTime: '22:00', endTime: '06:00' });
  });

  it('a rectangle is sent north-west / south-east; each shape has its own set and delete message', () => {
    const rect = fenceSetMessage(fence({ shape: 'rect', sw: [120, 29.5], ne: [120.5, 30] }), AREA_ACTION.APPEND);
    expect(rect).toMatchObject({ msgId: 0x8602, action: 1, areas: [{ topLeft: { lat: 30, lng: 120 }, bottomRight: { lat: 29.5, lng: 120.5 } }] });
    expect(fenceSetMessage(fence({ shape: 'polygon', points: [[2, 1], [2, 1.5], [2.5, 1.5]] }), AREA_ACTION.APPEND).msgId).toBe(0x8604);
    expect(fenceSetMessage(fence({ shape: 'circle', center: [1, 1], radius: 10 }), AREA_ACTION.MODIFY)).toMatchObject({ msgId: 0x8600, action: 2 });
    expect(fenceDeleteMessage('circle', [1]).msgId).toBe(0x8601);
    expect(fenceDeleteMessage('rect', [1]).msgId).toBe(0x8603);
    expect(fenceDeleteMessage('polygon', [1]).msgId).toBe(0x8605);
    // Round trip through the wire (2019).
    const bytes = encodeBody(rect, 2019);
    expect(decode(0x8602, toHex(bytes), 2019)).toEqual(rect);
  });
});
