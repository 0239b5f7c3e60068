/**
 * Demo drivers (issue 15): one per seeded vehicle whose simulated terminal has a card reader, holding
 * the qualification certificate that terminal reports in its 0x0702 sign-in (server/sim/driver.ts),
 * in the vehicle's company and bound to it. So on `npm start` the simulator's sign-ins link to real
 * drivers on /information/driver. A few licences expire soon or have expired, so the list's expiry
 * badges and filters have something to show.
 */
import { chinaDayStart } from '../../domain/fleet/driver.ts';
import type { LicenceClass } from '../../domain/fleet/limits.ts';
import type { Repositories } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import { simDriverCard } from '../sim/driver.ts';

const DAY = 86_400_000;
const CLASSES: readonly LicenceClass[] = ['A1', 'A2', 'B1', 'B2', 'C1'];

export async function seedDrivers(tx: Repositories, vehicles: readonly { vehiidno: string; companyId: number; deviceNo: string | null }[], now = Date.now()): Promise<number> {
  const ids = new Map<string, number>();
  for (let i = 0; i < vehicles.length; i += 5000) {
    for (const [plate, id] of await tx.drivers.vehicleIdsByPlate(ALL_COMPANIES, vehicles.slice(i, i + 5000).map((v) => v.vehiidno))) ids.set(plate, id);
  }
  const seen = new Set<string>();
  let made = 0;
  for (const v of vehicles) {
    if (v.deviceNo === null) continue;
    const card = simDriverCard(v.deviceNo, now);
    const vehicleId = ids.get(v.vehiidno);
    if (!card || vehicleId === undefined || seen.has(card.certificate)) continue;
    seen.add(card.certificate);
    const n = Number(card.certificate.slice(-4));
    // One licence in 20 expires within the warning days, one in 20 has expired; the rest run for years.
    const licenceExpire = made % 20 === 3 ? chinaDayStart(now + 15 * DAY) : made % 20 === 7 ? chinaDayStart(now - 10 * DAY) : chinaDayStart(now + (400 + (n % 1500)) * DAY);
    const id = await tx.drivers.create({
      companyId: v.companyId, name: card.name, licenceNo: `330106${card.certificate.slice(-12)}`, licenceClass: CLASSES[n % CLASSES.length]!, licenceExpire,
      certNo: card.certificate, certAuthority: card.authority, certExpire: chinaDayStart(Date.parse(`${card.validUntil}T00:00:00+08:00`)),
      phone: `13${v.deviceNo.slice(-9)}`, status: 1, remark: '',
    });
    await tx.drivers.setVehicles(id, [vehicleId]);
    made++;
  }
  return made;
}
