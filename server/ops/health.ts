/**
 * Readiness (issue 20): is this instance able to do its work? Three parts, each only up or down, so
 * a public probe learns nothing else (no versions, paths, counts or error texts; the cause goes to
 * the server's log):
 * - database: a trivial query answers on the connection the handlers use;
 * - gateway: the JT/T 808 TCP server is listening (main.ts binds it after the HTTP port, and shutdown
 *   closes it first, so a balancer stops sending consoles before terminals are dropped);
 * - push: the push hub ticked within PUSH_TICK_STALE_MS (a timer that is set but whose tick throws
 *   every time, or a hub never started, is down).
 * A part whose role this node does not run (ROLES, issue 20 scale-out: `gateway`, `push`) is `off`
 * and does not make the node unready. `leader` says whether this node runs the cluster's once-only jobs
 * (server/ops/leader.ts); a follower is as ready as the leader.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import type { LiveRuntime } from '../live/runtime.ts';
import type { PushHub } from '../push/hub.ts';

export type PartState = 'up' | 'down' | 'off';
export interface Readiness {
  readonly status: 'ok' | 'unavailable';
  readonly checks: { readonly database: PartState; readonly gateway: PartState; readonly push: PartState };
  /** Issue 20: this node runs the cluster's once-only jobs (always true on the embedded database; not a check). */
  readonly leader: boolean;
}

export interface HealthSources {
  readonly storage: Storage;
  readonly live: LiveRuntime;
  readonly push: () => PushHub | undefined;
  readonly log: FastifyBaseLogger;
  /** This node's roles; absent: all. */
  readonly roles?: ReadonlySet<Role>;
  /** Whether this node is the cluster's leader (server/ops/leader.ts); absent: true. */
  readonly leader?: () => boolean;
}

/** The push part is down when the hub has not completed a tick for this long (ticks run every 50 ms). */
export const PUSH_TICK_STALE_MS = 5000;

export class HealthCheck {
  private ping: (() => unknown) | undefined;
  /** performance.now() of the hub's last completed tick (or of `watchPush` on a running hub); -Infinity: never. */
  private lastTick = -Infinity;

  constructor(private readonly sources: HealthSources) {}

  readiness(): Readiness {
    const database = this.database();
    const roles = this.sources.roles;
    const gateway: PartState = roles && !roles.has('gateway') ? 'off' : this.sources.live.gateway.port !== undefined ? 'up' : 'down';
    const hub = this.sources.push();
    // A hub started a moment ago has not ticked yet (ticks every 50 ms): its start counts as a tick.
    const push: PartState = roles && !roles.has('push') ? 'off' : hub?.running && performance.now() - Math.max(this.lastTick, hub.startedAt) <= PUSH_TICK_STALE_MS ? 'up' : 'down';
    const ok = database === 'up' && gateway !== 'down' && push !== 'down';
    return { status: ok ? 'ok' : 'unavailable', checks: { database, gateway, push }, leader: this.sources.leader?.() ?? true };
  }

  /**
   * Follows the hub's ticks (its `onTick`, chained to a listener already there). Real time, not the
   * store's clock: tests move that one. A hub running now counts as just ticked (the first tick is 50 ms away).
   */
  watchPush(hub: PushHub): void {
    const previous = hub.onTick;
    hub.onTick = (now, sent) => {
      this.lastTick = performance.now();
      previous?.(now, sent);
    };
    if (hub.running) this.lastTick = performance.now();
  }

  private database(): PartState {
    try {
      const db = (this.sources.storage as Partial<SqliteStorage>).db;
      // Another storage (no SQLite handle) has no cheap ping yet: counted as down rather than assumed up.
      if (!db) return 'down';
      // Prepared once: a closed connection makes the statement throw ("The database connection is not open").
      this.ping ??= ((stmt) => () => stmt.get())(db.prepare('SELECT 1'));
      this.ping();
      return 'up';
    } catch (err) {
      this.sources.log.warn({ err }, 'readiness: the database did not answer');
      this.ping = undefined;
      return 'down';
    }
  }
}
