/**
 * The platform's fence evaluation on the server: loads every fence with the vehicles bound to it
 * from a `FenceSource` (the database, wired in server/app.ts), keeps a `FenceEvaluator`
 * (domain/fence/rules.ts) over them and turns each live position into fence transitions that
 * AlarmService feeds to the alarm engine (group 13 in/out/forbidden, 12005 area overspeed).
 */
import type { Fence } from '../../domain/fence/types.ts';

/** Where the fences come from: every fence and the ids of the vehicles it applies to. */
export interface FenceSource {
  load(): { fence: Fence; vehicleIds: readonly number[] }[];
}
