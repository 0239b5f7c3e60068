/**
 * The scale-out bus between server roles (issue 20), as the rest of the server sees it. Nothing here
 * imports NATS: a server without NATS_URL never loads server/bus/nats.ts (index.ts imports it lazily).
 */
import type { Scope } from '../db/scope.ts';
import type { LivePosition } from '../live/store.ts';

/** One decoded, stored-ready position as it travels between nodes: what the live store applies, plus its company and arrival. */
export interface BusPosition extends LivePosition {
  /** The vehicle's company (its path makes the subject: subjects.ts). */
  readonly companyId: number;
  /** Epoch ms the gateway received it. */
  readonly receivedAt: number;
}

export interface BusStats {
  /** Positions handed to the bus by this node's gateway. */
  published: number;
  /** Of those, persisted in the stream (PubAck received). */
  persisted: number;
  /** Publishes that failed (no PubAck in time, stream error) and were sent again. */
  retried: number;
  /** Positions of other nodes applied to this node's live store. */
  received: number;
  /** Own positions seen on the stream and skipped (a node with gateway and push applies its own directly). */
  skippedOwn: number;
}

export interface PositionBus {
  /** This process's id on the bus (its own positions are not applied twice). */
  readonly nodeId: string;
  readonly stats: BusStats;
  /**
   * Publishes one position without waiting, on its company's subject (`companyPath`, subjects.ts); it counts
   * as persisted once the stream acknowledged it.
   */
  publish(position: BusPosition, companyPath: string): void;
  /**
   * Runs `callback` once every position published before this call is persisted in the stream.
   * Callbacks run in the order they were given. A failed publish is sent again and holds them meanwhile.
   */
  afterPersisted(callback: () => void): void;
  /** Resolves once every position published so far is persisted, or after `maxMs` (then false). */
  drain(maxMs: number): Promise<boolean>;
  /**
   * Follows the positions of the companies in `scope` (one subject filter, subjects.ts) from `sinceMs`
   * (epoch ms; what the store loaded from the database covers the time before) and calls `apply` for
   * those published by other nodes, until the answer's `close`.
   */
  follow(scope: Scope, sinceMs: number, apply: (position: BusPosition) => void): Promise<Following>;
  /** Stops following (every scope), waits (bounded) for outstanding PubAcks, closes the connection. */
  close(): Promise<void>;
}

/** One followed scope: `close` stops it. */
export interface Following {
  close(): Promise<void>;
}
