/**
 * The alarm pop-up's sound: the audio resource the user chose (their pop-up setting's `voiceUrl`, set on
 * the audio resources screen) or, without one or when it cannot play, the built-in tone. A resource of
 * this platform is fetched once with the session token and kept as an object URL (an <audio> cannot send
 * the token itself); another http(s) address plays as it is.
 */
import { playAlarmTone } from '../alarms/sound.ts';
import { voiceApi } from './api.ts';

const RESOURCE = /^\/service-ops\/audioManage\/file\?id=(\d+)$/;
const loaded = new Map<string, Promise<string>>();

/** The address an <audio> can play for a stored voiceUrl. */
function playable(voiceUrl: string): Promise<string> {
  let p = loaded.get(voiceUrl);
  if (!p) {
    const m = RESOURCE.exec(voiceUrl);
    p = m ? voiceApi.audioFile(Number(m[1])).then((r) => URL.createObjectURL(r.blob)) : Promise.resolve(voiceUrl);
    // A failed fetch is tried again next time (the file may have been re-uploaded).
    p.catch(() => loaded.delete(voiceUrl));
    loaded.set(voiceUrl, p);
  }
  return p;
}

export function alarmSoundUrl(id: number): string {
  return `/service-ops/audioManage/file?id=${id}`;
}

export function playAlarmSound(voiceUrl: string | undefined): void {
  if (!voiceUrl) return playAlarmTone();
  playable(voiceUrl)
    .then((src) => new Audio(src).play())
    .catch(() => playAlarmTone());
}
