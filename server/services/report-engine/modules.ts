/**
 * The day modules the server's report engine runs (issue 18): ONE list, registered by `installReportEngine`
 * before the app is ready, read by the bench (bench/report-engine.bench.ts) so that it measures exactly what
 * ships. The report routes name the modules they read (report-routes.ts `modules`); the engine takes the same
 * module object twice as one, so a route's module that is not in this list is still registered, but the bench
 * would then not count it: add every new module here.
 */
import { deviceModule } from '../../../domain/report-day/device.ts';
import { fuelModule } from '../../../domain/report-day/fuel.ts';
import { mileageModule } from '../../../domain/report-day/mileage.ts';
import type { DayModule } from '../../../domain/report-day/module.ts';
import { operationModule } from '../../../domain/report-day/operation.ts';

export const SHIPPED_DAY_MODULES: readonly DayModule<unknown, unknown>[] = [
  mileageModule as DayModule<unknown, unknown>,
  operationModule as DayModule<unknown, unknown>,
  fuelModule as DayModule<unknown, unknown>,
  deviceModule as DayModule<unknown, unknown>,
];
