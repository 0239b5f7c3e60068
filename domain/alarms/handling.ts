/**
 * What "handled" means for an alarm, defined once (review finding: ops check counted statuses 2 and 3, the
 * insurer's report 1, 2 and 3, the customer portrait 1 and 2). One meaning: an alarm is HANDLED once its
 * processing state left "unprocessed" (auto-processed by a platform rule, processed by a person, or judged
 * invalid): `dealStatus <> 0`. The screens differ only in WHICH alarms they count (the population), and each
 * population has a name here, so a rate always reads "handled ÷ <population>":
 * - `needsOperator` (ops check KPIs): every alarm but the auto-processed ones, which are the platform's rule and
 *   not an operator's work. Handled among them = processed by a person or judged invalid.
 * - `risk` (customer portrait): every alarm but those judged invalid (a false alarm is not risk). Handled among
 *   them = auto-processed or processed by a person.
 * - `all` (insurer's report): every alarm. Handled = anything but unprocessed.
 */
import { DealStatus } from './engine.ts';

/** True when the alarm's processing state left "unprocessed". */
export function isHandled(dealStatus: number): boolean {
  return dealStatus !== DealStatus.Unprocessed;
}

/** SQL for `isHandled` on an alarm alias (`a`): 1 or 0. */
export const handledSql = (alias: string): string => `(${alias}.deal_status <> ${DealStatus.Unprocessed})`;

export type AlarmPopulation = 'needsOperator' | 'risk' | 'all';

/** SQL condition choosing a population's alarms on an alarm alias. */
export function populationSql(population: AlarmPopulation, alias: string): string {
  if (population === 'needsOperator') return `${alias}.deal_status <> ${DealStatus.Auto}`;
  if (population === 'risk') return `${alias}.deal_status <> ${DealStatus.Invalid}`;
  return '1';
}
