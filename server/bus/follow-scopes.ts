/**
 * Which positions a push or API node follows (issue 20: "push nodes subscribe per company subject").
 *
 * A node follows the company subtrees its users look at, not the whole fleet: each console's push
 * connection holds its scope while it is open (`hold`), each authenticated API call keeps its caller's
 * scope for LEASE_MS (`touch`: the monitor, dashboard and video calls read the live store too), and the
 * node running the offline sweep holds every company (`followAll`: it needs every vehicle's last fix).
 * The scopes held reduce to their roots (a subtree inside another held one adds nothing), one ordered
 * consumer per root, filtered to the root's subject wildcard (subjects.ts).
 *
 * When a root starts to be followed and no root followed before covered it, the store's positions of
 * that subtree may be old: its consumer starts FOLLOW_OVERLAP_MS back and the subtree's latest rows
 * are read from the database (`loadLatest`); either source applies only what is newer, so the overlap
 * and the order of the two do no harm. A root that was covered by a wider one (an administrator
 * signed out, a branch manager stays) starts its consumer before the wider one stops: no gap.
 * Positions of subtrees nobody on this node follows are never delivered to it; their vehicles'
 * positions in this store go stale (contact still arrives for every vehicle, server/bus/events.ts), and
 * are read back from the database once someone looks again.
 *
 * Changes run one at a time (a chain): `hold`/`touch` answer once their scope is followed, so a
 * console's first snapshot and an API call's answer come from a store that has caught up.
 */
import type { Scope } from '../db/scope.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { BusPosition, Following, PositionBus } from './types.ts';

/** How long an API call keeps its caller's scope followed after the call. */
export const LEASE_MS = 10 * 60_000;
/** How often expired leases are dropped. */
export const EXPIRE_EVERY_MS = 60_000;
/** A scope starts following this long before now: positions published while its consumer was being made. */
export const FOLLOW_OVERLAP_MS = 5000;

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

export interface ScopedFollowingDeps {
  readonly bus: Pick<PositionBus, 'follow'>;
  /** Applies another node's position to the live store. */
  apply(position: BusPosition): void;
  /** Reads the latest stored position of every vehicle of the scope into the live store (see the header). */
  loadLatest(scope: Scope): Promise<void>;
  readonly clock?: () => number;
  readonly log?: Log;
}

interface Held {
  readonly scope: Scope;
  /** Open push connections (and the sweep) holding it. */
  holders: number;
  /** Epoch ms the last API call's lease ends. */
  leaseUntil: number;
}

const keyOf = (scope: Scope): string => (scope.all ? '*' : scope.rootPath);

/** True when `outer` holds every company of `inner`. */
function covers(outer: Scope, inner: Scope): boolean {
  return outer.all || (!inner.all && inner.rootPath.startsWith(outer.rootPath));
}

/** The scopes (distinct) that no other of them covers: one consumer each. */
export function rootsOf(scopes: readonly Scope[]): Scope[] {
  return scopes.filter((s) => !scopes.some((o) => o !== s && covers(o, s)));
}

export class ScopedFollowing {
  readonly stats = { roots: 0, started: 0, stopped: 0, loads: 0 };
  private readonly held = new Map<string, Held>();
  private readonly followed = new Map<string, { readonly scope: Scope; readonly following: Following }>();
  private chain: Promise<void> = Promise.resolve();
  /** Changes queued or under way: a scope followed now may be on its way out. */
  private pending = 0;
  private readonly clock: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private all = false;

  constructor(private readonly deps: ScopedFollowingDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Drops expired API leases every EXPIRE_EVERY_MS. */
  start(): void {
    this.timer ??= setInterval(() => void this.expire(), EXPIRE_EVERY_MS);
    this.timer.unref();
  }

  /** Stops following the scopes whose last holder left and whose API lease ended. */
  expire(): Promise<void> {
    return this.reconcile();
  }

  /** The roots followed now (tests, metrics). */
  roots(): Scope[] {
    return [...this.followed.values()].map((f) => f.scope);
  }

  /** A push connection of `scope` opens: resolves once followed; call the answer when it closes. */
  async hold(scope: Scope): Promise<() => void> {
    const h = this.entry(scope);
    h.holders++;
    let released = false;
    await this.reconcile();
    return () => {
      if (released) return;
      released = true;
      h.holders--;
      void this.reconcile();
    };
  }

  /** An API call of `scope`: followed for LEASE_MS from now; resolves once followed (at once when it already is). */
  touch(scope: Scope): Promise<void> {
    this.entry(scope).leaseUntil = this.clock() + LEASE_MS;
    // The common case, one map lookup and a prefix test per root: followed and nothing changing.
    return this.pending === 0 && this.isFollowed(scope) ? Promise.resolve() : this.reconcile();
  }

  /** The offline sweep's node follows every company while it runs the sweep (idempotent: on twice holds once). */
  followAll(on: boolean): Promise<void> {
    if (on === this.all) return this.chain;
    this.all = on;
    this.entry(ALL_COMPANIES).holders += on ? 1 : -1;
    return this.reconcile();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.chain;
    await Promise.all([...this.followed.values()].map((f) => f.following.close()));
    this.followed.clear();
  }

  private entry(scope: Scope): Held {
    const key = keyOf(scope);
    let h = this.held.get(key);
    if (!h) this.held.set(key, (h = { scope, holders: 0, leaseUntil: -Infinity }));
    return h;
  }

  private isFollowed(scope: Scope): boolean {
    for (const f of this.followed.values()) if (covers(f.scope, scope)) return true;
    return false;
  }

  /** Brings the consumers in line with what is held, after any change already under way. */
  private reconcile(): Promise<void> {
    this.pending++;
    const next = this.chain.then(() => this.apply()).finally(() => this.pending--);
    this.chain = next.catch((err: unknown) => this.deps.log?.error({ err }, 'bus: following the held company scopes failed'));
    return next;
  }

  private async apply(): Promise<void> {
    if (this.closed) return;
    const now = this.clock();
    for (const [key, h] of this.held) if (h.holders <= 0 && h.leaseUntil <= now) this.held.delete(key);
    const wanted = rootsOf([...this.held.values()].map((h) => h.scope));
    const wantedKeys = new Set(wanted.map(keyOf));
    // Start the new roots first: a root a wider one covered until now has no gap while that one stops.
    for (const scope of wanted) {
      const key = keyOf(scope);
      if (this.followed.has(key)) continue;
      const wasCovered = this.isFollowed(scope);
      const following = await this.deps.bus.follow(scope, now - FOLLOW_OVERLAP_MS, (p) => this.deps.apply(p));
      this.followed.set(key, { scope, following });
      this.stats.started++;
      if (!wasCovered) {
        this.stats.loads++;
        await this.deps.loadLatest(scope);
      }
    }
    for (const [key, f] of this.followed) {
      if (wantedKeys.has(key)) continue;
      this.followed.delete(key);
      this.stats.stopped++;
      await f.following.close();
    }
    this.stats.roots = this.followed.size;
  }
}
