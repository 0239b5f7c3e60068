/**
 * Fault injection for server/ops/crash-acked.test.ts only (loaded with `--import` before main.ts): every
 * batch of the alarm service is stored CRASH_ALARM_DELAY_MS late, as in an alarm storm whose backlog
 * outlasts a history flush. Old behaviour (issue 20 part B): the report's 0x8001 went out after the
 * position's commit while its alarm row was still waiting, so a kill then lost the row.
 */
import { AlarmService } from '../alarms/service.ts';

const delayMs = Number(process.env.CRASH_ALARM_DELAY_MS ?? 500);
const proto = AlarmService.prototype as unknown as { drainBatch(batch: readonly unknown[]): Promise<void> };
const store = proto.drainBatch;
proto.drainBatch = async function (this: unknown, batch: readonly unknown[]): Promise<void> {
  await new Promise((r) => setTimeout(r, delayMs));
  return store.call(this, batch);
};
