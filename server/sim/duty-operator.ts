/**
 * A simulated duty operator (issue 19, ops check): a console user who signs in over HTTP and, every
 * `everyMs`, handles the unprocessed alarms of ONE company through the same calls the alarm processing
 * page makes (`POST /service-safe/alarmInfo` for the list, `PUT /service-safe/alarmInfo/handle_status`).
 * The demo server starts one for 华东分公司 only, so on `npm start` that branch's alarm handling KPIs
 * (/operation/operationManagement/opsCheckReport) pass while the other branches, whose alarms nobody
 * handles, miss their targets: figures made by the running system, not rows written by a seed.
 * Each round handles what arrived since the previous one, so the handling time is about `everyMs`.
 */

export interface DutyOperatorOptions {
  /** `http://127.0.0.1:<port>` of the running server. */
  readonly baseUrl: string;
  readonly username: string;
  readonly password: string;
  /** The company whose alarms this operator handles (its subtree). */
  readonly companyId: number;
  readonly everyMs?: number;
  /** A call unanswered this long is abandoned (the round ends, the next one tries again). @default 10000 */
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
}

export interface RunningDutyOperator {
  /** Alarms handled so far. */
  handled(): number;
  stop(): void;
}

interface Envelope<T> { code: number; msg: string; data: T }

export function startDutyOperator(o: DutyOperatorOptions): RunningDutyOperator {
  const every = o.everyMs ?? 2 * 60_000;
  let token: string | null = null;
  let handled = 0;
  let stopped = false;
  let busy = false;

  async function call<T>(method: string, path: string, body: unknown): Promise<Envelope<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['x-jwt'] = token;
    // Bounded: a server that accepts and never answers would otherwise hold `busy` forever and stop every later round.
    const res = await fetch(o.baseUrl + path, { method, headers, body: JSON.stringify(body), signal: AbortSignal.timeout(o.timeoutMs ?? 10_000) });
    // A token past half its life comes back renewed in the `jwt` header.
    const renewed = res.headers.get('jwt');
    if (renewed) token = renewed;
    return (await res.json()) as Envelope<T>;
  }

  async function signIn(): Promise<void> {
    const r = await call<{ token: string }>('POST', '/service-priv/login', { username: o.username, password: o.password, loginType: 'login' });
    if (r.code !== 200) throw new Error(`duty operator ${o.username} cannot sign in: ${r.msg}`);
    token = r.data.token;
  }

  async function round(): Promise<void> {
    if (busy || stopped) return;
    busy = true;
    try {
      if (!token) await signIn();
      // Page after page until nothing is left (a busy branch makes more than one page between rounds).
      for (let page = 0; page < 20 && !stopped; page++) {
        const now = Date.now();
        const list = await call<{ records: { id: number }[] }>('POST', '/service-safe/alarmInfo', {
          companyId: o.companyId, startTime: now - 24 * 3_600_000, endTime: now, dealStatuses: [0], current: 1, size: 100,
        });
        if (list.code === 401) {
          token = null;
          return;
        }
        const ids = list.code === 200 ? list.data.records.map((r) => r.id) : [];
        if (ids.length === 0) return;
        const r = await call<{ updated: number }>('PUT', '/service-safe/alarmInfo/handle_status', { ids, dealType: 1, dealContent: '值班员已电话提醒司机' });
        if (r.code !== 200) return;
        handled += r.data.updated;
      }
    } catch (e) {
      o.log?.(`duty operator: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      busy = false;
    }
  }

  const timer = setInterval(() => void round(), every);
  timer.unref();
  // The first round soon after start: alarms left from before a restart are handled late, as a real shift would.
  const first = setTimeout(() => void round(), Math.min(every, 15_000));
  first.unref();
  return {
    handled: () => handled,
    stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
    },
  };
}
