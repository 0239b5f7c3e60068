/**
 * A simulated terminal's areas (fences, issue 17), obeyed as a real terminal does:
 *
 * - 0x8600 / 0x8602 / 0x8604 store the areas sent (setting attribute 0 replaces every area of that
 *   kind, 1 append and 2 modify store by id), 0x8601 / 0x8603 / 0x8605 delete by id (no id: all of
 *   that kind); each is answered 0x0001 OK.
 * - While driving, every report is checked against the stored areas (inside their time window; a
 *   daily window 000000hhmm00 as the platform sends it, any other date read as its time of day):
 *   crossing into or out of an area whose attribute asks for in/out alarms sets alarm bit 20
 *   (进出区域) on that report with extra item 0x12 (area type BYTE 1 circle / 2 rect / 3 polygon,
 *   area id DWORD, direction BYTE 0 in / 1 out); inside an area with a speed limit, speed above it for
 *   its overspeed duration sets alarm bit 1 (超速) with extra item 0x11 (area type BYTE, area id DWORD)
 *   for as long as it lasts. Bit 20 is an event bit: set on the crossing report only (a real terminal
 *   clears it once the platform has answered that report).
 */
import { contains, inWindow, prepareGeometry, windowMinutes, type PreparedGeometry } from '../../domain/fence/geometry.ts';
import type { FenceGeometry, FenceRule } from '../../domain/fence/types.ts';
import { areaRule, FENCE_MSG, type AreaCommon, type CircleArea, type FenceMessage, type PolygonArea, type RectArea } from '../gateway/jt808/fences.ts';
import type { AdditionalItem, LocationInput } from '../gateway/jt808/location.ts';

export type AreaKind = 'circle' | 'rect' | 'polygon';
/** JT/T 808 position type of the 0x11 / 0x12 items (table 28 of 2019). */
const POSITION_TYPE: Record<AreaKind, number> = { circle: 1, rect: 2, polygon: 3 };

export const ALARM_BIT_OVERSPEED = 1 << 1;
export const ALARM_BIT_AREA = 1 << 20;

export interface SimArea {
  readonly kind: AreaKind;
  readonly id: number;
  readonly name: string;
  readonly rule: FenceRule;
  readonly geometry: FenceGeometry;
  readonly prepared: PreparedGeometry;
  readonly window: readonly [number, number] | null;
  /** Inside at the last report (undefined before the first). */
  inside?: boolean;
  /** Since when over the area's speed limit inside it (report time), null when not. */
  overSince: number | null;
}

const key = (kind: AreaKind, id: number) => `${kind}:${id}`;

function geometryOf(kind: AreaKind, a: AreaCommon): FenceGeometry {
  if (kind === 'circle') {
    const c = a as CircleArea;
    return { shape: 'circle', center: [c.center.lng, c.center.lat], radius: c.radius };
  }
  if (kind === 'rect') {
    const r = a as RectArea;
    return { shape: 'rect', sw: [r.topLeft.lng, r.bottomRight.lat], ne: [r.bottomRight.lng, r.topLeft.lat] };
  }
  return { shape: 'polygon', points: (a as PolygonArea).points.map((p) => [p.lng, p.lat] as const) };
}

/** The areas one terminal holds, like its flash (kept while the simulator runs). */
export class SimFenceStore {
  readonly areas = new Map<string, SimArea>();

  get(kind: AreaKind, id: number): SimArea | undefined {
    return this.areas.get(key(kind, id));
  }

  private put(kind: AreaKind, a: AreaCommon): void {
    const geometry = geometryOf(kind, a);
    const rule = areaRule(a);
    this.areas.set(key(kind, a.id), { kind, id: a.id, name: a.name, rule, geometry, prepared: prepareGeometry(geometry), window: windowMinutes(rule), overSince: null });
  }

  private clear(kind: AreaKind, ids: readonly number[]): void {
    if (ids.length === 0) {
      for (const [k, a] of this.areas) if (a.kind === kind) this.areas.delete(k);
      return;
    }
    for (const id of ids) this.areas.delete(key(kind, id));
  }

  /** Applies one area message. */
  apply(m: FenceMessage): void {
    switch (m.msgId) {
      case FENCE_MSG.SET_CIRCLES:
      case FENCE_MSG.SET_RECTS: {
        const kind: AreaKind = m.msgId === FENCE_MSG.SET_CIRCLES ? 'circle' : 'rect';
        if (m.action === 0) this.clear(kind, []);
        for (const a of m.areas) this.put(kind, a);
        return;
      }
      case FENCE_MSG.SET_POLYGON:
        this.put('polygon', m.area);
        return;
      case FENCE_MSG.DELETE_CIRCLES:
        return this.clear('circle', m.ids);
      case FENCE_MSG.DELETE_RECTS:
        return this.clear('rect', m.ids);
      case FENCE_MSG.DELETE_POLYGONS:
        return this.clear('polygon', m.ids);
    }
  }

  /** The report as the stored areas make it: bit 20 + 0x12 on a crossing, bit 1 + 0x11 over an area's limit. */
  applyTo(loc: LocationInput): LocationInput {
    if (this.areas.size === 0) return loc;
    let crossing: AdditionalItem | null = null;
    let overspeed: AdditionalItem | null = null;
    for (const a of this.areas.values()) {
      const active = inWindow(a.window, loc.time);
      const inside = contains(a.prepared, loc.lng, loc.lat);
      const was = a.inside;
      a.inside = inside;
      if (!active) {
        a.overSince = null;
        continue;
      }
      if (was !== undefined && was !== inside && (inside ? a.rule.alarmIn : a.rule.alarmOut) && !crossing) {
        const data = new Uint8Array(6);
        data[0] = POSITION_TYPE[a.kind];
        new DataView(data.buffer).setUint32(1, a.id);
        data[5] = inside ? 0 : 1;
        crossing = { id: 0x12, data };
      }
      const limit = a.rule.maxSpeed;
      if (inside && limit !== null && loc.speed > limit) {
        a.overSince ??= loc.time;
        if (loc.time - a.overSince >= a.rule.overspeedSeconds * 1000 && !overspeed) {
          const data = new Uint8Array(5);
          data[0] = POSITION_TYPE[a.kind];
          new DataView(data.buffer).setUint32(1, a.id);
          overspeed = { id: 0x11, data };
        }
      } else {
        a.overSince = null;
      }
    }
    if (!crossing && !overspeed) return loc;
    const extras = [...(loc.extras ?? []).filter((x) => x.id !== 0x11 && x.id !== 0x12), ...(overspeed ? [overspeed] : []), ...(crossing ? [crossing] : [])];
    const alarm = (loc.alarm | (crossing ? ALARM_BIT_AREA : 0) | (overspeed ? ALARM_BIT_OVERSPEED : 0)) >>> 0;
    return { ...loc, alarm, extras };
  }
}
