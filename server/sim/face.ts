/**
 * The simulated driver-monitoring camera's face recognition (issue 19, codec gateway/jt808/face.ts).
 * One terminal in three of those with a card reader (sim/driver.ts) has one. It starts holding its
 * card driver's face, as the demo seed records (server/seed/face-recognition.ts: the samples the
 * platform bound and the terminal confirmed), keeps what the platform pushes (0x8E11 → 0x0E11, kept
 * for as long as the simulator runs, like a flash), lists it (0x8E12 → 0x0E12), and compares the
 * driver at every shift start (each authentication) and on request (0x8E10): the card driver passes
 * when their face is held, except that one shift in seven the camera fails to match them (a mismatch
 * with a low similarity, the case the console's 误报 button exists for). Deterministic per device
 * number and shift count. The photo is the drawn placeholder portrait, not a face.
 */
import { placeholderPortrait } from '../services/face-warehouse/avatar.ts';
import { FACE_MSG, FACE_OP, FACE_RESULT, FACE_TRIGGER, PHOTO_TYPE, type FaceComparisonResult, type FaceMessage } from '../gateway/jt808/face.ts';
import { RESULT, type Jt808MessageInput } from '../gateway/jt808/index.ts';
import { simDriverCard } from './driver.ts';

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** True when the simulated terminal of `deviceNo` has a face-recognition camera. */
export function simHasFaceCamera(deviceNo: string): boolean {
  return simDriverCard(deviceNo, 0) !== null && hash(`face:${deviceNo}`) % 3 === 0;
}

export interface FaceLink {
  send(message: Jt808MessageInput): void;
  reply(result: number): void;
  position(): { lat: number; lng: number };
}

export class SimFaceUnit {
  /** Face id (certificate number) → name, as pushed. */
  readonly faces = new Map<string, string>();
  threshold = 80;
  private shifts = 0;
  private readonly photo: Uint8Array;
  private readonly card: { name: string; certificate: string };

  private constructor(readonly deviceNo: string) {
    const card = simDriverCard(deviceNo, 0)!;
    this.card = { name: card.name, certificate: card.certificate };
    this.faces.set(card.certificate, card.name);
    this.photo = new Uint8Array(placeholderPortrait(hash(deviceNo) % 100_000, 48));
  }

  /** The unit of a terminal with a face camera, else null. */
  static of(deviceNo: string): SimFaceUnit | null {
    return simHasFaceCamera(deviceNo) ? new SimFaceUnit(deviceNo) : null;
  }

  /** A comparison of the driver in the seat now. */
  compare(trigger: number, time: number, where: { lat: number; lng: number }): FaceComparisonResult {
    const n = this.shifts++;
    const h = hash(this.deviceNo);
    const held = this.faces.has(this.card.certificate);
    const miss = !held || (h + n) % 7 === 3;
    const similarity = miss ? 30 + ((h >>> 4) + n * 11) % 30 : Math.max(this.threshold, 82 + ((h >>> 4) + n * 13) % 17);
    return {
      msgId: FACE_MSG.RESULT, result: miss ? FACE_RESULT.MISMATCH : FACE_RESULT.PASS, similarity: Math.min(100, similarity), threshold: this.threshold, trigger,
      time: Math.floor(time / 1000) * 1000, lat: Math.round(Math.abs(where.lat) * 1e6), lng: Math.round(Math.abs(where.lng) * 1e6),
      // A mismatch still names the closest face the camera holds (when it holds any): what the operator checks.
      faceId: held ? this.card.certificate : '', name: held ? this.card.name : '', photoType: PHOTO_TYPE.PNG, photo: this.photo,
    };
  }

  /** Shift start (the terminal authenticated): a comparison, when any face is held. */
  shiftStart(time: number, link: FaceLink): void {
    if (this.faces.size > 0) link.send(this.compare(FACE_TRIGGER.SHIFT_START, time, link.position()));
  }

  /** A platform face message addressed to this terminal (serial: the platform's). */
  command(m: FaceMessage, serial: number, time: number, link: FaceLink): void {
    switch (m.msgId) {
      case FACE_MSG.SAMPLES:
        if (m.op === FACE_OP.REPLACE || m.op === FACE_OP.CLEAR) this.faces.clear();
        for (const f of m.faces) {
          if (m.op === FACE_OP.DELETE) this.faces.delete(f.faceId);
          else if (m.op !== FACE_OP.CLEAR) this.faces.set(f.faceId, f.name);
        }
        if (m.threshold > 0) this.threshold = m.threshold;
        link.send({ msgId: FACE_MSG.SAMPLES_ANSWER, replySerial: serial, result: 0, faceIds: [...this.faces.keys()] });
        return;
      case FACE_MSG.QUERY:
        link.send({ msgId: FACE_MSG.QUERY_ANSWER, replySerial: serial, faceIds: [...this.faces.keys()] });
        return;
      case FACE_MSG.RECOGNISE:
        link.reply(RESULT.OK);
        link.send(this.compare(FACE_TRIGGER.PLATFORM, time, link.position()));
        return;
      default:
        link.reply(RESULT.UNSUPPORTED);
    }
  }
}
