/**
 * The JT/T 1078 video alarm item of a 0x0200 report (issue 18): item 0x14, a DWORD whose bits are
 * VIDEO_ALARM_BITS (sources.ts: signal loss, occlusion, storage unit fault, other video device fault, …).
 * The codec keeps items it does not interpret raw (`extras`); this reads the word from them so the alarm
 * engine can raise the device-fault alarms behind the device work reports.
 */

/** Item id of the video alarm word (JT/T 1078-2016 table 13). */
export const VIDEO_ALARM_ITEM = 0x14;

/** The 0x14 word of a report's raw items, or undefined when absent or not 4 bytes long. */
export function videoAlarmWord(extras: readonly { readonly id: number; readonly data: Uint8Array }[] | undefined): number | undefined {
  if (extras === undefined) return undefined;
  for (const x of extras) {
    if (x.id !== VIDEO_ALARM_ITEM || x.data.length !== 4) continue;
    const d = x.data;
    return (d[0]! * 0x1000000 + ((d[1]! << 16) | (d[2]! << 8) | d[3]!)) >>> 0;
  }
  return undefined;
}

/** The item that carries `word` (the simulator and tests encode it with the report's `extras`). */
export function videoAlarmItem(word: number): { id: number; data: Uint8Array } {
  const w = word >>> 0;
  return { id: VIDEO_ALARM_ITEM, data: Uint8Array.of(w >>> 24, (w >>> 16) & 0xff, (w >>> 8) & 0xff, w & 0xff) };
}
