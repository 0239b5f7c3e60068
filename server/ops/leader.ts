/**
 * Leadership (issue 20 scale-out): which node of a cluster on one PostgreSQL database runs the
 * background jobs that must run once (retention deletes, the daily dashboard rows, the platform's
 * offline sweep, …; the inventory and the reasons are in server/cluster-jobs.md).
 *
 * - Embedded SQLite: one process owns the database file, so it is always the leader (`SoleLeader`).
 * - PostgreSQL (`DATABASE_URL`): `PgLeadership` holds the session-level advisory lock LEADER_LOCK_KEY on a
 *   connection of its own (an async `pg.Client`, not the synchronous facade's connection: a session lock
 *   must outlive the facade's transactions and must not block the event loop while it is retried). The
 *   lock is released by PostgreSQL when that session ends, so a killed leader (`kill -9`: the kernel closes
 *   its socket) frees it at once, and a follower's next try (every `retryMs`) takes it.
 * - While leader it checks its connection every `retryMs`; a failed check, an error or the connection's end
 *   make it step down at once (its jobs stop starting new work) and try again on a fresh connection. Bound of
 *   the overlap after a network partition: PostgreSQL frees the lock when it notices the dead session (TCP
 *   keepalive, set here to 10 s idle), the old leader steps down at its next failed check (≤ retryMs +
 *   CHECK_TIMEOUT_MS); jobs are written to tolerate a sweep of the old leader finishing its current step.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { NodePresence } from './presence.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this node runs the once-per-cluster jobs (always on the embedded database). */
    leadership: Leadership;
    /** Whether this node runs the platform's offline sweep: a separate election among the nodes whose live store sees every terminal. */
    sweepLeadership: Leadership;
    /** This node's id and check-ins (server/ops/presence.ts): the survivors recover what a dead node held. */
    presence: NodePresence;
  }
}

/** The advisory-lock key of the leader ('fldr'; the write lock is 'flee', the schema lock 'fmig'). */
export const LEADER_LOCK_KEY = 0x666c6472;
/** The advisory-lock key of the offline sweep's election ('foff'). */
export const SWEEP_LOCK_KEY = 0x666f6666;
/** A follower tries to take the lock this often; a leader checks its connection this often. */
export const LEADER_RETRY_MS = 3000;
/** A connection check that takes longer than this counts as failed (the leader steps down). */
export const CHECK_TIMEOUT_MS = 5000;

export interface Leadership {
  /** True while this node runs the once-per-cluster jobs. */
  readonly isLeader: boolean;
  /** False on the embedded database (a single node, always the leader). */
  readonly shared: boolean;
  /** Called on every change of `isLeader` (not for the state at subscription); answers the unsubscribe. */
  onChange(listener: (leader: boolean) => void): () => void;
  /** Takes part: the first try is made before this resolves (a node alone on the database is leader at once). */
  start(): Promise<void>;
  /** Steps down and releases the lock (its connection ends). */
  stop(): Promise<void>;
}

abstract class Listeners {
  private readonly listeners = new Set<(leader: boolean) => void>();

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected emit(leader: boolean): void {
    for (const l of this.listeners) {
      try {
        l(leader);
      } catch {
        // A listener's failure must not keep the others from hearing the change.
      }
    }
  }
}

/** The embedded database's single node: always the leader. */
export class SoleLeader extends Listeners implements Leadership {
  readonly isLeader = true;
  readonly shared = false;
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

/** A node that does not stand (e.g. for the offline sweep, a node whose store does not see every terminal). */
export class NoCandidate extends Listeners implements Leadership {
  readonly isLeader = false;
  readonly shared = true;
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

export interface PgLeadershipOptions {
  readonly retryMs?: number;
  readonly key?: number;
  readonly log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** One node's part in the election on a shared PostgreSQL database (see the file header). */
export class PgLeadership extends Listeners implements Leadership {
  readonly shared = true;
  private leader = false;
  private client: pg.Client | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;
  private turn: Promise<void> = Promise.resolve();
  private readonly retryMs: number;
  private readonly key: number;

  constructor(private readonly url: string, private readonly options: PgLeadershipOptions = {}) {
    super();
    this.retryMs = options.retryMs ?? LEADER_RETRY_MS;
    this.key = options.key ?? LEADER_LOCK_KEY;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.step();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.turn;
    this.setLeader(false);
    await this.drop();
  }

  /** One try (follower) or check (leader), then the next is scheduled; never two at once. */
  private step(): Promise<void> {
    this.turn = this.turn.then(async () => {
      if (this.stopped) return;
      try {
        if (this.leader) await this.check();
        else await this.tryTake();
      } catch (err) {
        this.options.log?.warn({ err: String(err) }, this.leader ? 'leadership: connection check failed, stepping down' : 'leadership: could not try the lock');
        this.setLeader(false);
        await this.drop();
      }
      if (!this.stopped) {
        this.timer = setTimeout(() => void this.step(), this.retryMs);
        this.timer.unref();
      }
    });
    return this.turn;
  }

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: 'fleet-leadership' });
    // The session (and so the lock) is gone: step down now, not at the next check.
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.leader) this.options.log?.warn({ err: err === undefined ? undefined : String(err) }, 'leadership: lock connection lost, stepping down');
      this.setLeader(false);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
    } catch (err) {
      this.client = undefined;
      client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async tryTake(): Promise<void> {
    const client = await this.connect();
    const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [this.key]);
    if (r.rows[0]?.ok === true) {
      this.options.log?.info({ key: this.key }, 'leadership: this node is the leader');
      this.setLeader(true);
    }
  }

  private async check(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('no lock connection');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    try {
      // The lock is still ours: an admin's pg_advisory_unlock_all or a restarted backend would show here.
      const r = await Promise.race([
        client.query<{ held: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND classid = ($1::bigint >> 32)::oid AND objid = ($1::bigint & 4294967295)::oid AND objsubid = 1) AS held", [this.key]),
        timeout,
      ]);
      if (r.rows[0]?.held !== true) throw new Error('the advisory lock is no longer held');
    } finally {
      clearTimeout(timer);
    }
  }

  private setLeader(leader: boolean): void {
    if (this.leader === leader) return;
    this.leader = leader;
    this.emit(leader);
  }
}

/** The leadership of a node on this storage: PostgreSQL (`url` of the facade's handle) or the embedded database. */
export function createLeadership(db: unknown, options: PgLeadershipOptions = {}): Leadership {
  const url = typeof db === 'object' && db !== null && 'url' in db ? (db as { url: unknown }).url : undefined;
  return typeof url === 'string' && /^postgres(?:ql)?:\/\//i.test(url) ? new PgLeadership(url, options) : new SoleLeader();
}

/**
 * Does this node's live store see every terminal's contact? On the embedded database it is the only node; in a
 * cluster a node following every gateway's positions and terminal contact on the bus (`push` role with NATS_URL,
 * server/bus/events.ts) does; a gateway-only node sees its own terminals only.
 */
export function storeSeesEveryTerminal(config: Pick<Config, 'roles' | 'natsUrl'>, shared: boolean): boolean {
  return !shared || (config.natsUrl !== undefined && config.roles.has('push'));
}

/**
 * `app.leadership` and `app.sweepLeadership`, started before this resolves (a node alone on the database is leader
 * as the jobs start on ready) and stopped after everything else closed.
 */
export async function installLeadership(app: FastifyInstance, deps: { config: Config; storage: Storage }): Promise<void> {
  const db = (deps.storage as Partial<SqliteStorage>).db;
  const log = app.log;
  const leadership = createLeadership(db, { log });
  const sweep = leadership.shared && !storeSeesEveryTerminal(deps.config, true)
    ? new NoCandidate()
    : createLeadership(db, { log, key: SWEEP_LOCK_KEY });
  const presence = new NodePresence(db as ConstructorParameters<typeof NodePresence>[0], leadership.shared, Date.now, log);
  app.decorate('leadership', leadership);
  app.decorate('sweepLeadership', sweep);
  app.decorate('presence', presence);
  presence.start();
  await leadership.start();
  await sweep.start();
  app.addHook('onClose', async () => {
    await sweep.stop();
    await leadership.stop();
    presence.stop();
  });
}
