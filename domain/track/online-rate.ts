/**
 * The two "online rates" the screens show, each defined once under a name that says which it is (review
 * finding: one word, two meanings).
 * - `vehicleDayOnlineRate` (车辆上线率 of the ops check, 上线率 of /report/onlineControl): online vehicle-days ÷
 *   vehicle-days. A vehicle online on 20 of 30 days counts 20/30: it measures how steadily the fleet reports.
 * - `vehicleOnlineRate` (上线率 of the customer portrait, labelled 车辆上线率(月内上线车辆)): vehicles online on at
 *   least one day of the period ÷ vehicles. The same vehicle counts fully: it measures how much of the fleet is in use.
 * Both answer a percentage, unrounded (each screen rounds to its own precision); null when there is nothing to
 * divide by (the caller words "no data").
 */
export function vehicleDayOnlineRate(onlineVehicleDays: number, vehicleDays: number): number | null {
  return vehicleDays === 0 ? null : (onlineVehicleDays / vehicleDays) * 100;
}

export function vehicleOnlineRate(onlineVehicles: number, vehicles: number): number | null {
  return vehicles === 0 ? null : (onlineVehicles / vehicles) * 100;
}
