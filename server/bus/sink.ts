/**
 * The gateway's history sink on a node with a bus (issue 20): each position queued for the database is
 * also published to the stream, and an acknowledgement waits for both the database commit and the
 * stream's PubAck of every position queued before it (in order: server/live/history.ts `afterCommit`).
 */
import type { PositionRow } from '../db/repositories.ts';
import type { CommitBarrier, HistorySink, HistoryStats } from '../live/history.ts';
import type { PositionBus } from './types.ts';

/** The longest a gateway stop waits for outstanding PubAcks after the last history flush. */
export const STOP_DRAIN_MS = 5000;

export class StreamedHistory implements HistorySink {
  constructor(
    private readonly inner: HistorySink,
    private readonly bus: PositionBus,
    /** The vehicle's company and its path (the subject), undefined for a vehicle the store does not know (not published). */
    private readonly companyOf: (vehicleId: number) => { readonly id: number; readonly path: string } | undefined,
  ) {}

  get pending(): number {
    return this.inner.pending;
  }

  get stats(): HistoryStats {
    return this.inner.stats;
  }

  enqueue(row: PositionRow): void {
    this.inner.enqueue(row);
    const company = this.companyOf(row.vehicleId);
    if (company === undefined) return;
    this.bus.publish({
      vehicleId: row.vehicleId, companyId: company.id, lng: row.lng, lat: row.lat, speed: row.speed, heading: row.heading, altitude: row.altitude,
      statusFlags: row.status, alarmFlags: row.alarm, gpsTime: row.gpsTime, receivedAt: row.receivedAt,
    }, company.path);
  }

  /**
   * `callback` runs once both the commit and the PubAcks of everything queued before are in. Both
   * sources release in order, so the later of the two keeps the callbacks in order too.
   */
  afterCommit(callback: () => void): void {
    let arrived = 0;
    const both = () => {
      if (++arrived === 2) callback();
    };
    this.bus.afterPersisted(both);
    this.inner.afterCommit(both);
  }

  async flush(): Promise<void> {
    await this.inner.flush();
    await this.bus.drain(STOP_DRAIN_MS);
  }

  async close(): Promise<void> {
    await this.inner.close();
    await this.bus.drain(STOP_DRAIN_MS);
  }

  addBarrier(barrier: CommitBarrier): void {
    this.inner.addBarrier?.(barrier);
  }
}
