import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeMediaFrame, MEDIA_KIND, type MediaFrame } from '../../../proto/media-frame.ts';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { LIVE_COMMAND, LIVE_DATA } from '../../gateway/jt808/index.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import type { TalkStatus } from '../../media/talk.ts';
import { SimIntercom } from '../../sim/intercom.ts';

let server: LiveTestServer;
let base: string;
let admin: string;
let devices: { vehicleId: number; deviceNo: string }[];
const terminals: TestTerminal[] = [];
/** The scripted terminals' media side: connects to the media port when a 0x9101 intercom/broadcast arrives. */
const intercom = new SimIntercom();

const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  expect(cond()).toBe(true);
};

/** A logged-in, reporting terminal for device `i` whose media side answers intercom requests. */
async function online(i: number, answer = true): Promise<TestTerminal> {
  const d = devices[i]!;
  const t = await TestTerminal.connect(server.gatewayPort, d.deviceNo);
  terminals.push(t);
  await t.login();
  await t.report(location({ lng: 121.5, lat: 31.2, time: Math.floor(Date.now() / 1000) * 1000 }));
  if (answer) {
    let seen = 0;
    const poll = setInterval(() => {
      for (; seen < t.commands.length; seen++) {
        const m = t.commands[seen]!.message;
        if (m.msgId === 0x9101 && (m.dataType === LIVE_DATA.INTERCOM || m.dataType === LIVE_DATA.BROADCAST)) {
          void intercom.start({ host: m.host, port: m.tcpPort, sim: d.deviceNo, simLength: 6, channel: m.channel, mode: m.dataType === LIVE_DATA.INTERCOM ? 'talk' : 'broadcast' });
        }
        if (m.msgId === 0x9102 && m.command === LIVE_COMMAND.CLOSE_INTERCOM) intercom.stop(d.deviceNo);
      }
    }, 10);
    void t.closed.then(() => clearInterval(poll));
  }
  return t;
}

class Talker {
  readonly statuses: TalkStatus[] = [];
  readonly frames: MediaFrame[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<number>;
  readonly opened: Promise<void>;
  constructor(token: string, vehicleId: number) {
    this.ws = new WebSocket(`${base}/ws-service/talk?token=${token}&vehicleId=${vehicleId}`);
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) this.frames.push(decodeMediaFrame(new Uint8Array(data as Buffer)));
      else this.statuses.push(JSON.parse(String(data)) as TalkStatus);
    });
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve) => this.ws.once('open', () => resolve()));
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
  }
  states(): string[] {
    return this.statuses.map((s) => (s.reason ? `${s.state}:${s.reason}` : s.state));
  }
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 10 });
  const { port } = server.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${port}`;
  admin = await server.login('admin', 'admin123');
  devices = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
});

afterAll(async () => {
  intercom.close();
  await Promise.all(terminals.map((t) => t.close()));
  await server?.close();
});

describe('two-way intercom (/ws-service/talk)', () => {
  it('opens 0x9101 type 2, relays the terminal’s audio to the operator and the operator’s audio to the terminal, and closes with 0x9102 command 4', async () => {
    const t = await online(0);
    const d = devices[0]!;
    const talker = new Talker(admin, d.vehicleId);
    await until(() => talker.states().includes('talking'));
    expect(talker.states()).toEqual(['connecting', 'talking']);
    const request = t.commands.find((c) => c.message.msgId === 0x9101)!.message;
    expect(request).toMatchObject({ msgId: 0x9101, dataType: LIVE_DATA.INTERCOM, channel: 1, tcpPort: expect.any(Number) });

    // Terminal → operator: its microphone's G.711A in media frames on the intercom channel.
    await until(() => talker.frames.length >= 3);
    expect(talker.frames[0]).toMatchObject({ kind: MEDIA_KIND.G711A, channel: 1 });
    expect(talker.frames[0]!.payload.length).toBe(320);

    // Operator → terminal: 20 ms frames of a known pattern arrive as 1078 audio packets, in order.
    const sent: Uint8Array[] = [];
    for (let i = 0; i < 10; i++) {
      const frame = new Uint8Array(160).map((_, j) => (i * 7 + j) & 0xff);
      sent.push(frame);
      talker.ws.send(frame);
    }
    await until(() => (intercom.heard(d.deviceNo)?.bytes ?? 0) >= 1600);
    const heard = intercom.heard(d.deviceNo)!;
    expect(heard.packets).toBe(10);
    expect(heard.payloadTypes).toEqual([6]);
    expect(heard.addressedRight).toBe(true);
    expect(heard.serialsInOrder).toBe(true);
    expect(heard.timestampsInOrder).toBe(true);
    expect(Buffer.from(heard.audio)).toEqual(Buffer.concat(sent));
    expect(server.app.media.talk.stats.framesOut).toBeGreaterThanOrEqual(10);
    // A message over 200 ms (1,600 bytes) is dropped, not forwarded.
    const dropped = server.app.media.talk.stats.dropped;
    talker.ws.send(new Uint8Array(2000));
    await until(() => server.app.media.talk.stats.dropped === dropped + 1);
    expect(intercom.heard(d.deviceNo)!.packets).toBe(10);
    // Frames of any length 1–1600 go through: an odd length (161 bytes = 20.125 ms) used to leave a
    // fractional timestamp that the next packet's writer threw on, taking the server down.
    talker.ws.send(new Uint8Array(161));
    talker.ws.send(new Uint8Array(160));
    talker.ws.send(new Uint8Array(7));
    await until(() => intercom.heard(d.deviceNo)!.packets === 13);
    expect(intercom.heard(d.deviceNo)!.timestampsInOrder).toBe(true);
    expect(talker.states().at(-1)).toBe('talking');

    // The operator hangs up: the terminal is told to close the intercom.
    talker.ws.close();
    await talker.closed;
    await until(() => t.commands.some((c) => c.message.msgId === 0x9102));
    expect(t.commands.find((c) => c.message.msgId === 0x9102)!.message).toMatchObject({ command: LIVE_COMMAND.CLOSE_INTERCOM, channel: 1 });
    await until(() => server.app.media.talk.stats.sessions === 0);
    // Live video of the same terminal is untouched by the intercom connection.
    expect(server.app.media.hub.stats.channels).toBe(0);
  });

  it('refuses a second operator while the terminal is in an intercom, with the intercom message', async () => {
    await online(1);
    const d = devices[1]!;
    const first = new Talker(admin, d.vehicleId);
    await until(() => first.states().includes('talking'));
    const second = new Talker(admin, d.vehicleId);
    expect(await second.closed).toBe(1000);
    expect(second.statuses).toEqual([{ type: 'status', state: 'stopped', reason: 'intercomFailed', detail: 'busy' }]);
    expect(first.states()).toEqual(['connecting', 'talking']);
    first.ws.close();
    await first.closed;
  });

  it('answers the spec’s vehicle-offline message for a vehicle whose terminal is not online, and intercomFailed when the terminal never connects', async () => {
    const never = new Talker(admin, devices[9]!.vehicleId);
    expect(await never.closed).toBe(1000);
    expect(never.states()).toEqual(['stopped:deviceOffline']);

    // Online but the terminal refuses 0x9101 (result 1): "intercom not opened or connection failed".
    const t = await online(2, false);
    t.commandResult = 1;
    const refused = new Talker(admin, devices[2]!.vehicleId);
    expect(await refused.closed).toBe(1000);
    expect(refused.states()).toEqual(['connecting', 'stopped:intercomFailed']);
    expect(refused.statuses[1]!.detail).toBe('connectFailed');
  });

  it('refuses a connection without a valid token, and a user without the talk button (403 before any upgrade)', async () => {
    const r = await server.call('GET', `/ws-service/talk?token=x&vehicleId=${devices[0]!.vehicleId}`);
    expect(r.status).toBe(401);
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', `/ws-service/talk?token=${operator}&vehicleId=${devices[0]!.vehicleId}`)).status).toBe(403);
    const fun = await server.call('POST', '/service-command/command/startFun', { token: operator, body: { vehicleId: devices[0]!.vehicleId, fun: 'music' } });
    expect(fun.status).toBe(403);
    const call = await server.call('POST', '/service-command/command/callAlarm', { token: operator, body: { vehicleId: devices[0]!.vehicleId, phone: '13800138000' } });
    expect(call.status).toBe(403);
  });
});

describe('reminder sounds (startFun) and phone callback (callAlarm)', () => {
  it('plays the ring chime on the terminal’s speaker by centre broadcast (0x9101 type 4), then closes it', async () => {
    const t = await online(3);
    const d = devices[3]!;
    const r = await server.call<{ durationMs: number; fun: string }>('POST', '/service-command/command/startFun', { token: admin, body: { vehicleId: d.vehicleId, fun: 'music' } });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ fun: 'music', durationMs: 3000 });
    expect(t.commands.find((c) => c.message.msgId === 0x9101)!.message).toMatchObject({ dataType: LIVE_DATA.BROADCAST, channel: 1 });
    await until(() => (intercom.heard(d.deviceNo)?.bytes ?? 0) >= 8000, 8000);
    expect(intercom.heard(d.deviceNo)!.mode).toBe('broadcast');
    expect(intercom.heard(d.deviceNo)!.addressedRight).toBe(true);
    // After the 3 s clip the broadcast closes (0x9102 command 0 on the channel).
    await until(() => t.commands.some((c) => c.message.msgId === 0x9102), 8000);
    expect(t.commands.find((c) => c.message.msgId === 0x9102)!.message).toMatchObject({ command: LIVE_COMMAND.CLOSE, channel: 1 });
    expect(intercom.heard(d.deviceNo)!.bytes).toBe(24_000);
  });

  it('sends 0x8400 with the number and the call mode, logs it on the alarm-free call, and rejects a bad number in the caller’s language', async () => {
    const t = await online(4);
    const d = devices[4]!;
    const r = await server.call<{ result: number; flag: number }>('POST', '/service-command/command/callAlarm', { token: admin, body: { vehicleId: d.vehicleId, phone: '138-0013 8000', listen: true } });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ result: 0, flag: 1 });
    expect(t.commands.find((c) => c.message.msgId === 0x8400)!.message).toEqual({ msgId: 0x8400, flag: 1, phone: '13800138000' });

    const bad = await server.call('POST', '/service-command/command/callAlarm', { token: admin, lang: 'en', body: { vehicleId: d.vehicleId, phone: 'call me' } });
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe('Enter a valid phone number (3–20 digits)');
    const offline = await server.call('POST', '/service-command/command/callAlarm', { token: admin, body: { vehicleId: devices[8]!.vehicleId, phone: '13800138000' } });
    expect(offline.status).toBe(409);
    expect(offline.msg).toBe('设备不在线');
  });

  it('answers the vehicle-offline message when the reminder’s vehicle is not online', async () => {
    const r = await server.call('POST', '/service-command/command/startFun', { token: admin, lang: 'en', body: { vehicleId: devices[8]!.vehicleId, fun: 'audio' } });
    expect(r.status).toBe(409);
    expect(r.msg).toBe('The device is offline');
  });
});
