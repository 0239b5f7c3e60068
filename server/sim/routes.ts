/**
 * A simulated terminal's routes (issue 17), obeyed as a real terminal does:
 *
 * - 0x8606 stores the route sent (replacing one of the same id), 0x8607 deletes by id (no id: every
 *   route); each is answered 0x0001 OK.
 * - While driving, every report is checked against the stored routes with the platform's own rules
 *   (domain/route/rules.ts) but no delay: once on a route, outside its corridor sets alarm bit 23
 *   (路线偏离, a state bit held while off it); leaving a section forwards faster or slower than its
 *   thresholds sets bit 22 (路段行驶时间不足/过长, an event bit on that report) with extra item 0x13
 *   (section id DWORD, travel time WORD s, result BYTE 0 too short / 1 too long); above a section's
 *   speed limit for its duration sets bit 1 (超速) with extra item 0x11 (position type 4 = section,
 *   section id DWORD) while it lasts.
 */
import { ROUTE_CODES, RouteEvaluator } from '../../domain/route/rules.ts';
import type { Route } from '../../domain/route/types.ts';
import type { AdditionalItem, LocationInput } from '../gateway/jt808/location.ts';
import { routeOf, ROUTE_MSG, type RouteMessage } from '../gateway/jt808/routes.ts';

export const ALARM_BIT_OVERSPEED = 1 << 1;
export const ALARM_BIT_SECTION_TIME = 1 << 22;
export const ALARM_BIT_ROUTE_DEVIATION = 1 << 23;
/** The evaluator's vehicle: one terminal is one vehicle. */
const SELF = 0;

export class SimRouteStore {
  readonly routes = new Map<number, Route>();
  private evaluator = new RouteEvaluator([]);
  private deviating = false;
  /** The section over its limit (0x11 item), null when none. */
  private overspeedSection: number | null = null;

  get(id: number): Route | undefined {
    return this.routes.get(id);
  }

  apply(m: RouteMessage): void {
    if (m.msgId === ROUTE_MSG.SET_ROUTE) this.routes.set(m.id, { ...routeOf(m, 0), companyId: 0 });
    else if (m.ids.length === 0) this.routes.clear();
    else for (const id of m.ids) this.routes.delete(id);
    // A route removed lets go of what it held (bit 23 falls).
    for (const t of this.evaluator.replace([...this.routes.values()].map((route) => ({ route, vehicleIds: [SELF] })), Date.now())) {
      if (t.phase === 'end' && t.code === ROUTE_CODES.deviation) this.deviating = false;
      if (t.phase === 'end' && t.code === ROUTE_CODES.sectionOverspeed) this.overspeedSection = null;
    }
  }

  /** The report as the stored routes make it. */
  applyTo(loc: LocationInput): LocationInput {
    if (this.routes.size === 0 && !this.deviating) return loc;
    let sectionTime: AdditionalItem | null = null;
    for (const t of this.evaluator.evaluate({ vehicleId: SELF, time: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed })) {
      if (t.code === ROUTE_CODES.deviation) this.deviating = t.phase === 'start';
      else if (t.code === ROUTE_CODES.sectionOverspeed) this.overspeedSection = t.phase === 'start' ? t.section : null;
      else if (t.code === ROUTE_CODES.sectionTime && t.travel && t.section !== null && !sectionTime) {
        const data = new Uint8Array(7);
        const v = new DataView(data.buffer);
        v.setUint32(0, t.section + 1);
        v.setUint16(4, Math.min(0xffff, t.travel.seconds));
        data[6] = t.travel.tooLong ? 1 : 0;
        sectionTime = { id: 0x13, data };
      }
    }
    const overspeed: AdditionalItem | null = this.overspeedSection === null ? null : (() => {
      const data = new Uint8Array(5);
      data[0] = 4;
      new DataView(data.buffer).setUint32(1, this.overspeedSection + 1);
      return { id: 0x11, data };
    })();
    if (!sectionTime && !overspeed && !this.deviating) return loc;
    const drop = new Set([...(sectionTime ? [0x13] : []), ...(overspeed ? [0x11] : [])]);
    const extras = [...(loc.extras ?? []).filter((x) => !drop.has(x.id)), ...(overspeed ? [overspeed] : []), ...(sectionTime ? [sectionTime] : [])];
    const alarm = (loc.alarm | (this.deviating ? ALARM_BIT_ROUTE_DEVIATION : 0) | (sectionTime ? ALARM_BIT_SECTION_TIME : 0) | (overspeed ? ALARM_BIT_OVERSPEED : 0)) >>> 0;
    return { ...loc, alarm, extras };
  }
}
