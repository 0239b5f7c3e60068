/**
 * Alarm linkage (issue 5, alarm settings → linkage page): what an alarm of a type does beyond being
 * stored — open the console's pop-up, sound a tone there, speak a text in the cab (JT/T 808 0x8300
 * with the TTS flag). A company sets it per type; a company without its own row inherits its nearest
 * ancestor's; with no row anywhere these defaults apply.
 *
 * Defaults (ours; the spec shows the page, not its defaults): high and medium risks pop up with a
 * tone, low and ordinary ones only count (an offline reminder every few minutes per vehicle would
 * bury the rest of the pop-up). Speaking in the cab is never on by default: a voice the driver did
 * not expect is itself a distraction, so a company turns it on deliberately.
 */
import { alarmName } from './catalogue.ts';
import { defaultRiskLevel, type RiskLevel } from './sources.ts';

export interface Linkage {
  readonly popup: boolean;
  readonly voice: boolean;
  readonly tts: boolean;
}

/** The default linkage for a platform risk level. */
export function linkageForLevel(level: RiskLevel): Linkage {
  const loud = level === 'high' || level === 'medium';
  return { popup: loud, voice: loud, tts: false };
}

/**
 * The default linkage of a type: that of its catalogue level. A company's first own row made by
 * setting a level starts from the linkage of the level it set (raising a type to high makes it pop up).
 */
export function defaultLinkage(code: number): Linkage {
  return linkageForLevel(defaultRiskLevel(code) ?? 'ordinary');
}

/** What the terminal speaks for a linked alarm (the driver hears Chinese; 0x8300 carries GBK). */
export function linkageSpeech(code: number): string {
  return `平台提醒：${alarmName(code, 'zh')}，请注意安全驾驶`;
}
