/**
 * Vehicle CAN data (JT/T 808 0x0705) for the alarm pop-up's OBD buttons, server/API.md "Vehicle CAN
 * data": the gateway hands every 0x0705 here, its J1939 and OBD-II frames are decoded
 * (domain/obd/can.ts) and the latest values per vehicle and protocol are kept in memory with the
 * time they arrived. Memory only, by design: the panel shows the engine now; a CAN history for the
 * OBD reports (shellProject/obdReport) would be a table of its own.
 */
import { Type } from '@fastify/type-provider-typebox';
import { decodeCanFrames, type CanProtocol, type ObdValues } from '../../domain/obd/can.ts';
import type { Storage } from '../db/repositories.ts';
import { CAN_DATA, type CanDataUpload } from '../gateway/jt808/can.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { auth, narrowedScope } from '../http/auth.ts';
import { fail, ok } from '../http/envelope.ts';
import { requestLang } from '../http/lang.ts';
import { Id, Strict, type App } from '../http/route.ts';
import { SafeMessages } from '../services/safe/messages.ts';

export interface ObdReading extends ObdValues {
  protocol: CanProtocol;
  /** When the platform received it (epoch ms). */
  time: number;
}

/** Latest readings per vehicle and protocol. */
export class ObdStore {
  private readonly latest = new Map<number, Partial<Record<CanProtocol, ObdReading>>>();
  /** 0x0705 messages taken. */
  uploads = 0;

  onUpload(vehicleId: number, msg: CanDataUpload, now: number): void {
    this.uploads++;
    const decoded = decodeCanFrames(msg.items.map((i) => ({ id: i.id, extended: i.extended, channel: i.channel, data: i.data })));
    const entry = this.latest.get(vehicleId) ?? {};
    for (const protocol of Object.keys(decoded) as CanProtocol[]) {
      const values = decoded[protocol]!;
      const before = entry[protocol];
      // A value this upload lacks keeps the previous one (terminals send PGNs at different rates).
      const merged = { ...values };
      if (before) for (const k of Object.keys(merged) as (keyof ObdValues)[]) if (merged[k] === null) merged[k] = before[k];
      entry[protocol] = { ...merged, protocol, time: now };
    }
    this.latest.set(vehicleId, entry);
  }

  of(vehicleId: number): Partial<Record<CanProtocol, ObdReading>> {
    return this.latest.get(vehicleId) ?? {};
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Latest CAN data per vehicle (tests read it). */
    obd: ObdStore;
  }
}

export function obdRoutes(app: App, deps: { storage: Storage; gateway: Jt808Gateway; clock?: () => number }): ObdStore {
  const { storage, gateway } = deps;
  const clock = deps.clock ?? Date.now;
  const store = new ObdStore();
  app.decorate('obd', store);
  gateway.handleTerminalMessage(CAN_DATA, ({ vehicleId, message }) => {
    if (message.msgId === CAN_DATA) store.onUpload(vehicleId, message, clock());
  });

  app.get('/service-monitor/obd/detail', {
    // The area; the button (obd: OBD-II, obdLargeVehicle: J1939) is checked by `protocol`.
    config: { permission: '/global/alarm' },
    schema: { querystring: Strict({ vehicleId: Id, protocol: Type.Union([Type.Literal('obd2'), Type.Literal('j1939')]) }) },
  }, async (request) => {
    const ctx = auth(request);
    const { vehicleId, protocol, companyId } = request.query;
    const button = protocol === 'obd2' ? 'obd' : 'obdLargeVehicle';
    if (!ctx.isAdmin && !ctx.access.hasButton('/global/alarm', button)) throw fail.forbidden();
    const scope = await narrowedScope(storage, ctx, companyId);
    if (!(await storage.fleet.getVehicle(scope, vehicleId))) throw fail.notFound(SafeMessages.vehicleNotFound);
    return ok({ vehicleId, protocol, reading: store.of(vehicleId)[protocol] ?? null }, requestLang(request));
  });
  return store;
}
