/**
 * A test terminal acting as the simulator's camera (server/sim/camera.ts): each 0x8801 it receives is
 * answered with 0x0805 and its photos (the committed fixture JPEGs) uploaded as 0x0801, in 1023-byte
 * sub-packages as the simulator sends them. Set `commandResult = null` on the terminal first: a camera
 * answers 0x8801 with 0x0805, not with a 0x0001.
 */
import { encodeBody, type Jt808Header, type Jt808MessageInput } from '../gateway/jt808/index.ts';
import type { Multimedia } from '../gateway/jt808/multimedia.ts';
import type { TestTerminal } from '../gateway/terminal-client.ts';
import { cameraCommand, type CameraLink } from '../sim/camera.ts';

/** Starts answering; the photos sent are put in `sent` by media id. Answers a stop function. */
export function actAsCamera(t: TestTerminal, sent: Map<number, Uint8Array>): () => void {
  const link: CameraLink = {
    deviceNo: t.phone,
    edition: t.version,
    send: (m: Jt808MessageInput) => {
      const mm = m as Multimedia;
      if (mm.msgId === 0x0801) sent.set(mm.mediaId, mm.data);
      if (encodeBody(m, t.version).length > 1023) t.sendSplit(m, 1023);
      else t.send(m);
    },
  };
  let seen = 0;
  const timer = setInterval(() => {
    while (seen < t.commands.length) {
      const c = t.commands[seen++]!;
      const header = { msgId: c.message.msgId, serial: c.serial } as Jt808Header;
      cameraCommand(link, header, c.message as Multimedia, Date.now());
    }
  }, 5);
  return () => clearInterval(timer);
}
