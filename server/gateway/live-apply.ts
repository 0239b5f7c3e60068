/**
 * Applying an authenticated terminal's positions: queued in history first (the ack, sent once they
 * are committed — `afterCommit` — promises them),
 * then the live store unless the report is history only (older than the vehicle's latest, or dated
 * ahead of its arrival), then `onReport` listeners (alarm generation). Callers hold the vehicle id of
 * a terminal authenticated on the connection the report came from (session.ts decides that).
 */
import type { PositionRow } from '../db/repositories.ts';
import type { HistorySink } from '../live/history.ts';
import type { LiveStore } from '../live/store.ts';
import type { BatchLocation, LocationReport, ProtocolEdition } from './jt808/index.ts';
import type { GatewayLog, GatewayStats, ReportListener } from './types.ts';

/**
 * A terminal whose clock runs ahead would pin the live position: every correct report after it
 * would look older than the latest. Reports this far in the future are kept in history only.
 */
export const FUTURE_TOLERANCE_MS = 10 * 60_000;

export class LiveApplier {
  /** Called for every report accepted live (alarm generation hooks in here). */
  onReport: ReportListener | undefined;

  constructor(
    private readonly store: LiveStore,
    private readonly history: HistorySink,
    private readonly stats: GatewayStats,
    private readonly log: GatewayLog | undefined,
  ) {}

  /** Runs `callback` once every position queued so far is committed (the gateway's acks wait here). */
  afterCommit(callback: () => void): void {
    this.history.afterCommit(callback);
  }

  /** One 0x0200. */
  location(vehicleId: number, loc: LocationReport, edition: ProtocolEdition): void {
    const receivedAt = this.store.clock();
    if (this.queue(vehicleId, loc, receivedAt)) {
      if (!this.applyLive(vehicleId, loc, receivedAt)) {
        this.stats.historyOnly++;
        this.store.touch(vehicleId, receivedAt);
      } else {
        this.notify(vehicleId, loc, edition);
      }
    } else {
      this.store.touch(vehicleId, receivedAt);
    }
  }

  /** One 0x0704: every item queued first (the ack promises all of them), then applied oldest first. */
  batch(vehicleId: number, message: BatchLocation, edition: ProtocolEdition): void {
    const receivedAt = this.store.clock();
    this.stats.batchInvalidItems += message.invalid;
    const accepted = message.items.filter((loc) => this.queue(vehicleId, loc, receivedAt));
    this.store.touch(vehicleId, receivedAt);
    // Oldest first, so the store ends on the newest item and older ones count as history only.
    accepted.sort((a, b) => a.time - b.time);
    for (const loc of accepted) {
      if (!this.applyLive(vehicleId, loc, receivedAt)) this.stats.historyOnly++;
      // A blind-area re-upload (type 1) describes the past: it never raises live alarms.
      else if (message.type !== 1) this.notify(vehicleId, loc, edition);
    }
  }

  private notify(vehicleId: number, loc: LocationReport, edition: ProtocolEdition): void {
    if (!this.onReport) return;
    try {
      this.onReport(vehicleId, loc, edition);
    } catch (err) {
      // A listener failure must never cost the terminal its ack.
      this.log?.warn({ err }, 'gateway: report listener failed');
    }
  }

  /** Queues a report in history; false when it has no fix (nothing to keep). */
  private queue(vehicleId: number, loc: LocationReport, receivedAt: number): boolean {
    if (!Number.isFinite(loc.time)) {
      this.stats.noFix++;
      return false;
    }
    const row: PositionRow = {
      vehicleId, gpsTime: loc.time, lng: loc.lng, lat: loc.lat, speed: loc.speed, heading: loc.direction, altitude: loc.altitude,
      status: loc.status, alarm: loc.alarm, mileage: loc.mileage ?? null, fuel: loc.fuel ?? null, receivedAt,
    };
    this.history.enqueue(row);
    this.stats.positions++;
    return true;
  }

  /** Applies a report to the live store; false when it is history only (older than the latest, or from the future). */
  private applyLive(vehicleId: number, loc: LocationReport, receivedAt: number): boolean {
    if (loc.time > receivedAt + FUTURE_TOLERANCE_MS) {
      this.stats.futureTime++;
      return false;
    }
    return this.store.applyPosition({
      vehicleId, lng: loc.lng, lat: loc.lat, speed: loc.speed, heading: loc.direction, altitude: loc.altitude,
      statusFlags: loc.status, alarmFlags: loc.alarm, gpsTime: loc.time,
    });
  }
}
