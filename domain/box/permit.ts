/**
 * 70006 无准运证运输 (transport without a permit): the slag-truck transport permit (准运证) register's
 * rule. Pure; the box service (server/services/box-status) holds each truck's permits in memory and runs
 * it per live report with the item. Design: domain/box/CONTEXT.md, contract: the service's api.md.
 *
 * A permit belongs to one vehicle and is valid over [validFrom, validTo) (epoch ms; the console picks
 * whole China days, so validTo is the midnight after the last valid day). A loaded truck moving above
 * MOVING_KMH with no permit valid at the report's GPS time transports without a permit. An empty truck
 * needs none (it carries nothing to permit); a truck at rest is loading or waiting, not transporting.
 */
import { MOVING_KMH, type BoxState } from './status.ts';

export const PERMIT_ALARM = 70006;

export interface PermitPeriod {
  /** Epoch ms, inclusive. */
  readonly validFrom: number;
  /** Epoch ms, exclusive. */
  readonly validTo: number;
}

/** Whether one of the permits is valid at `time`. */
export function permitValidAt(permits: readonly PermitPeriod[] | undefined, time: number): boolean {
  return permits !== undefined && permits.some((p) => p.validFrom <= time && time < p.validTo);
}

/** 70006's condition: loaded, moving, and no permit valid at the report's time. */
export function transportWithoutPermit(s: BoxState, speedKmh: number, time: number, permits: readonly PermitPeriod[] | undefined, movingKmh = MOVING_KMH): boolean {
  return s.loaded && speedKmh > movingKmh && !permitValidAt(permits, time);
}
