/**
 * What each statistics dimension shows: a row's key (to line up a comparison), its label, and the
 * chart cell whose alarms `aggregate/alarms` lists. Pure (unit-tested).
 */
import type { StatsDimension } from '../../../domain/alarms/stats.ts';
import type { CompanyRow, DateRow, DriverRow, StatsCell, StatsRow, TypeRow, VehicleRow } from './api.ts';

export function rowKey(dim: StatsDimension, row: StatsRow, index: number): string {
  switch (dim) {
    case 'type': return `t${(row as TypeRow).alarmType}`;
    // Two periods line their days up by position: day 1 with day 1.
    case 'date': return `#${index}`;
    case 'vehicle': return `v${(row as VehicleRow).vehicleId}`;
    case 'driver': return (row as DriverRow).driverKey;
    case 'company': {
      const c = row as CompanyRow;
      return `${c.own ? 'own' : 'c'}${c.companyId}`;
    }
  }
}

/** `own` is the suffix of a company's own-vehicles row in the caller's language. */
export function rowLabel(dim: StatsDimension, row: StatsRow, own: string): string {
  switch (dim) {
    case 'type': return (row as TypeRow).alarmName;
    case 'date': return (row as DateRow).date;
    case 'vehicle': return (row as VehicleRow).vehiidno;
    case 'driver': return (row as DriverRow).driverName;
    case 'company': {
      const c = row as CompanyRow;
      return c.own ? `${c.companyName}${own}` : c.companyName;
    }
  }
}

export function cellOf(dim: StatsDimension, row: StatsRow): StatsCell {
  switch (dim) {
    case 'type': return { alarmType: (row as TypeRow).alarmType };
    case 'date': return { date: (row as DateRow).date };
    case 'vehicle': return { vehicleId: (row as VehicleRow).vehicleId };
    case 'driver': return { driverKey: (row as DriverRow).driverKey };
    case 'company': {
      const c = row as CompanyRow;
      // A child row is its whole subtree; the parent's row is its own vehicles only.
      return c.own ? { companyId: c.companyId, ownCompanyId: c.companyId } : { companyId: c.companyId };
    }
  }
}
