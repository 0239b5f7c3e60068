/**
 * Gives a scripted test terminal the simulator's camera: every snapshot request (0x8801) it receives is
 * answered as a simulated terminal would (fixtures/video/photo-ch*.jpg, 0x0805 then the 0x0801 photo,
 * split into sub-packages when large). Stops when the terminal's connection closes.
 */
import { encodeBody, encodeFrames, type Jt808MessageInput } from '../server/gateway/jt808/index.ts';
import type { TestTerminal } from '../server/gateway/terminal-client.ts';
import { cameraCommand } from '../server/sim/camera.ts';

export function answerSnapshots(t: TestTerminal, deviceNo: string): void {
  let serial = 40_000;
  const link = {
    deviceNo, edition: 2013 as const,
    send: (m: Jt808MessageInput) => {
      const body = encodeBody(m);
      if (body.length <= 1023) t.send(m);
      else for (const f of encodeFrames({ msgId: m.msgId, phone: deviceNo, serial: serial++, version: 2013 }, body)) t.raw(f);
    },
  };
  let seen = 0;
  const poll = setInterval(() => {
    for (; seen < t.commands.length; seen++) {
      const c = t.commands[seen]!;
      if (c.message.msgId !== 0x8801) continue;
      const header = { msgId: 0x8801, serial: c.serial, bodyLength: 0, encryption: 0, subpackage: false, version: 2013 as const, protocolVersion: 0, phone: deviceNo, packageTotal: 0, packageIndex: 0 };
      cameraCommand(link, header, c.message, Date.now());
    }
  }, 10);
  void t.closed.then(() => clearInterval(poll));
}
