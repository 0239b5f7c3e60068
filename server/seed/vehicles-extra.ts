/**
 * Issue 15: the demo vehicles get the fields an operator enters, so /information/vehicle shows true
 * data: a VIN with its check digit (the seed's random VIN with position 9 computed), a plate colour,
 * a vehicle type (buses on lines, trucks and others off them), and insurance / inspection expiry dates
 * of which a few have expired and a few expire within the warning window. Deterministic (seeded
 * random), one UPDATE per vehicle inside the seed's transaction (2,000 vehicles: a few ms).
 */
import { VEHICLE_LIMITS, type VehicleType } from '../../domain/fleet/limits.ts';
import { vinCheckDigit } from '../../domain/fleet/vin.ts';
import { prng } from '../../domain/random.ts';
import type { Repositories } from '../db/repositories.ts';

const DAY_MS = 86_400_000;
const OFF_LINE_TYPES: readonly VehicleType[] = ['truck', 'coach', 'taxi', 'sanitation', 'muck', 'car', 'dangerous', 'special'];

/** The China-day start `days` from `now`'s day. */
function chinaDayStart(now: number, days: number): number {
  const dayStart = Math.floor((now + 8 * 3_600_000) / DAY_MS) * DAY_MS - 8 * 3_600_000;
  return dayStart + days * DAY_MS;
}

/** An expiry date: ~4 % expired, ~8 % within the warning window, the rest up to a year ahead. */
function expiry(random: () => number, now: number): number {
  const r = random();
  if (r < 0.04) return chinaDayStart(now, -1 - Math.floor(random() * 60));
  if (r < 0.12) return chinaDayStart(now, Math.floor(random() * (VEHICLE_LIMITS.expiryWarnDays + 1)));
  return chinaDayStart(now, VEHICLE_LIMITS.expiryWarnDays + 1 + Math.floor(random() * 330));
}

export async function seedVehicleExtras(tx: Repositories, now = Date.now()): Promise<void> {
  const random = prng(15);
  const rows = await tx.vehicles.seedRows();
  await tx.vehicles.setSeedFields(rows.map((v) => {
    const vin = v.vin.length === 17 ? `${v.vin.slice(0, 8)}${vinCheckDigit(v.vin)}${v.vin.slice(9)}` : v.vin;
    const vehicleType: VehicleType = v.lineId !== null ? 'bus' : OFF_LINE_TYPES[Math.floor(random() * OFF_LINE_TYPES.length)]!;
    // Buses, coaches and cars carry blue plates here; goods vehicles yellow (large vehicles); a few new-energy green.
    const plateColor = random() < 0.1 ? 5 : ['bus', 'taxi', 'car'].includes(vehicleType) ? 1 : 2;
    return { id: v.id, vin, plateColor, vehicleType, insuranceExpire: expiry(random, now), inspectionExpire: expiry(random, now) };
  }));
}
