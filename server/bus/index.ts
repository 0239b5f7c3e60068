/**
 * The scale-out bus's wiring (issue 20). Without NATS_URL nothing here connects and server/bus/nats.ts
 * (the NATS client) is never loaded: the single-node server runs as before.
 * - A node with the `gateway` role publishes every position its terminals report (sink.ts) and
 *   acknowledges a report once the stream persisted it (and the database committed it).
 * - A node with the `push` or `api` role follows the stream into its live store, so its consoles see
 *   vehicles connected to any gateway: only the company subtrees its consoles and API callers look at
 *   (follow-scopes.ts), every company on the node running the offline sweep. Its own positions (gateway
 *   and push in one process) are skipped: the gateway already applied them.
 * - Commands to terminals (commands.ts, `attachCommandBus`): a node's commands for a vehicle no
 *   connection of its own holds go to the gateway node that holds it (NATS request/reply), with a
 *   single node's outcomes; a gateway node serves its terminals' commands.
 * - Alarms, alarm handlings, terminal contact and fleet changes (events.ts, `attachBusEvents`, stream
 *   FLEET_EVT): published where a single node hands them on in-process, applied on the other nodes.
 */
import { randomBytes } from 'node:crypto';
import { upgradePackagesDirOf, type Config } from '../config.ts';
import type { PositionRepository } from '../db/repositories.ts';
import { pathInScope, type Scope } from '../db/scope.ts';
import { FUTURE_TOLERANCE_MS } from '../gateway/live-apply.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import type { HistorySink } from '../live/history.ts';
import type { LiveStore } from '../live/store.ts';
import { ScopedFollowing } from './follow-scopes.ts';
import { StreamedHistory } from './sink.ts';
import type { BusPosition, PositionBus } from './types.ts';

export type { BusPosition, PositionBus } from './types.ts';
export { FOLLOW_OVERLAP_MS, ScopedFollowing } from './follow-scopes.ts';

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/** Connects to NATS_URL (undefined without it). Fails the start when the server cannot be reached or the stream cannot be made. */
export async function openBus(config: Config, log: Log): Promise<PositionBus | undefined> {
  if (!config.natsUrl) return undefined;
  const { connectNatsBus } = await import('./nats.ts');
  try {
    return await connectNatsBus({ servers: config.natsUrl, nodeId: randomBytes(6).toString('base64url'), log });
  } catch (err) {
    throw new Error(`NATS_URL: could not connect to ${config.natsUrl.replace(/\/\/[^@/]*@/g, '//…@')} or set up the stream: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * Issue 20: commands to terminals across nodes (commands.ts, NATS loaded only here): the gateway's
 * commands for vehicles it does not hold go to the gateway node that does; a gateway node serves its
 * terminals' commands. Undefined without NATS_URL.
 */
export async function attachCommandBus(config: Config, gateway: Jt808Gateway, nodeId: string, log: Log): Promise<{ close(): Promise<void> } | undefined> {
  if (!config.natsUrl) return undefined;
  const { connectCommandBus } = await import('./commands.ts');
  return connectCommandBus(gateway, { servers: config.natsUrl, nodeId, serve: config.roles.has('gateway'), log, upgradeDir: upgradePackagesDirOf(config) });
}

/** The gateway's history sink publishing to `bus` (what createLiveRuntime hands the gateway). */
export function streamedHistory(history: HistorySink, bus: PositionBus, store: LiveStore): HistorySink {
  return new StreamedHistory(history, bus, (vehicleId) => {
    const slot = store.slotOf(vehicleId);
    return slot < 0 ? undefined : { id: store.columns.companyId[slot]!, path: store.companyPathOf(slot) };
  });
}

/**
 * Applies another node's position as the gateway's LiveApplier would: live unless it is older than the
 * vehicle's latest or dated too far ahead of its arrival; contact either way.
 */
export function applyBusPosition(store: LiveStore, p: BusPosition): void {
  const live = p.gpsTime <= p.receivedAt + FUTURE_TOLERANCE_MS && store.applyPosition({
    vehicleId: p.vehicleId, lng: p.lng, lat: p.lat, speed: p.speed, heading: p.heading, altitude: p.altitude,
    statusFlags: p.statusFlags, alarmFlags: p.alarmFlags, gpsTime: p.gpsTime,
  });
  if (!live) store.touch(p.vehicleId);
}

/**
 * What a push or API node follows of the position stream (follow-scopes.ts): another node's positions go
 * to `store`; a subtree it starts to follow is read back from `positions` first.
 */
export function scopedFollowing(bus: PositionBus, store: LiveStore, positions: Pick<PositionRepository, 'latestOf'>, log: Log, clock?: () => number): ScopedFollowing {
  return new ScopedFollowing({
    bus,
    log,
    clock,
    apply: (p) => applyBusPosition(store, p),
    async loadLatest(scope: Scope) {
      const ids: number[] = [];
      for (let s = 0; s < store.count; s++) if (pathInScope(scope, store.companyPathOf(s))) ids.push(store.columns.vehicleId[s]!);
      for (const p of await positions.latestOf(ids)) {
        store.catchUp({
          vehicleId: p.vehicleId, lng: p.lng, lat: p.lat, speed: p.speed, heading: p.heading, altitude: p.altitude,
          statusFlags: p.status, alarmFlags: p.alarm, gpsTime: p.gpsTime, receivedAt: p.receivedAt,
        });
      }
    },
  });
}
