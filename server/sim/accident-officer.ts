/**
 * The demo's safety officer (issue 19, accident analysis): on a demo database the seeded `safety` account
 * (刘安全) reads the collision alarms the simulated fleet raised (ADAS forward collision 10006, pedestrian
 * collision 10009, JT/T 808 collision warning 18005) through the same alarm list the console uses, and
 * files one as an accident through `POST /service-crm/accident/save` with that alarm linked — at most one
 * per `gapMs` (a real fleet has few accidents; the pages need a true one, not a flood). Nothing is written
 * to the database directly: the rows are what the running system made, audited like any officer's.
 * Filing is idempotent per alarm: before filing, the officer asks the accident list for one linking that alarm
 * (`alarmId`), so after a restart (its memory of what it filed gone) it never files the same alarm twice.
 */
export interface AccidentOfficerOptions {
  /** The console API origin, e.g. `http://127.0.0.1:8080/bcmp-web` up to the service paths. */
  apiUrl: string;
  username: string;
  password: string;
  /** How often the officer looks at new alarms. @default 120000 */
  intervalMs?: number;
  /** The least time between two accidents filed. @default 6 h */
  gapMs?: number;
  clock?: () => number;
  log?: (line: string) => void;
}

export const COLLISION_ALARM_TYPES = [10006, 10009, 18005] as const;

interface Envelope<T> { code: number; msg: string; data: T }
interface AlarmRow { id: number; alarmType: number; vehicleId: number; vehiidno: string; startTime: number; lng: number; lat: number; speed: number; driverName?: string }

export interface RunningOfficer { stop(): void; /** One look now (tests). */ tick(): Promise<number | null> }

export function startAccidentOfficer(o: AccidentOfficerOptions): RunningOfficer {
  const clock = o.clock ?? Date.now;
  const gap = o.gapMs ?? 6 * 3_600_000;
  let token = '';
  let lastFiled = 0;
  let since = clock() - 3_600_000;
  let busy = false;

  async function call<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
    const res = await fetch(`${o.apiUrl}${path}`, {
      // Bounded: an unanswered call would hold `busy` and stop every later look.
      signal: AbortSignal.timeout(10_000),
      method, headers: { 'content-type': 'application/json', 'x-lang': 'zh', ...(token ? { 'x-jwt': token } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const fresh = res.headers.get('jwt');
    if (fresh) token = fresh;
    return (await res.json()) as Envelope<T>;
  }

  async function signIn(): Promise<void> {
    const r = await call<{ token: string }>('POST', '/service-priv/login', { username: o.username, password: o.password, loginType: 'default' });
    if (r.code !== 200) throw new Error(`accident officer: login ${r.code} ${r.msg}`);
    token = r.data.token;
  }

  async function tick(): Promise<number | null> {
    const now = clock();
    if (busy || now - lastFiled < gap) return null;
    busy = true;
    try {
      if (!token) await signIn();
      const list = await call<{ records: AlarmRow[] }>('POST', '/service-safe/alarmInfo', {
        current: 1, size: 20, startTime: since, endTime: now, alarmTypes: [...COLLISION_ALARM_TYPES],
      });
      if (list.code === 401) { token = ''; return null; }
      if (list.code !== 200) return null;
      since = now - 60_000;
      // The hardest hit first: the fastest vehicle at its alarm, among those no accident links yet.
      let alarm: AlarmRow | undefined;
      for (const candidate of [...list.data.records].sort((a, b) => b.speed - a.speed)) {
        const filed = await call<{ total: number }>('POST', '/service-crm/accident/page', { current: 1, size: 1, alarmId: candidate.id });
        if (filed.code !== 200) return null;
        if (filed.data.total === 0) { alarm = candidate; break; }
      }
      if (!alarm) return null;
      const saved = await call<{ id: number }>('POST', '/service-crm/accident/save', {
        vehicleId: alarm.vehicleId, time: alarm.startTime, lng: alarm.lng, lat: alarm.lat,
        place: `报警位置（${alarm.lng.toFixed(5)}, ${alarm.lat.toFixed(5)}）`, type: alarm.alarmType === 10009 ? 'pedestrian' : 'collision',
        propertyLoss: 2_000, description: `车辆在 ${Math.round(alarm.speed)} km/h 时触发碰撞类报警，安全员电话核实后登记，待调查。`,
        driverName: alarm.driverName ?? '', alarmIds: [alarm.id], state: 'investigating',
      });
      if (saved.code !== 200) { o.log?.(`accident officer: file refused ${saved.code} ${saved.msg}`); return null; }
      lastFiled = now;
      o.log?.(`accident officer: filed accident #${saved.data.id} for ${alarm.vehiidno} (alarm ${alarm.id})`);
      return saved.data.id;
    } catch (err) {
      o.log?.(`accident officer: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    } finally {
      busy = false;
    }
  }

  const timer = setInterval(() => void tick(), o.intervalMs ?? 120_000);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
