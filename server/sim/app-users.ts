/**
 * Simulated drivers'-app users (issue 19; server/services/app-feedback/CONTEXT.md "App API"). Each signs
 * in through the app API like the real app would, then every tick: fetches its pushes (the server marks
 * them delivered), acknowledges what it has "read" a little later (read), now and then raises a feedback
 * thread, and reads the administrators' replies. Everything the feedback and app push screens show on
 * `npm start` is made this way, through the real HTTP paths — nothing is written to the database here.
 */
import { Rng } from './rng.ts';

export interface AppUserSimOptions {
  /** The console server, e.g. http://127.0.0.1:8080. */
  readonly baseUrl: string;
  readonly accounts: readonly { username: string; password: string }[];
  /** Poll period per user. @default 10_000 */
  readonly pollMs?: number;
  /** Chance per poll that a user raises a new feedback thread. @default 0.01 (about one per 17 minutes per user) */
  readonly feedbackChance?: number;
  /** How long a user takes to "read" a delivered push. @default 15_000 */
  readonly readDelayMs?: number;
  readonly seed?: number;
}

export interface RunningAppUsers {
  readonly stats: { logins: number; polls: number; delivered: number; read: number; feedback: number; errors: number };
  stop(): void;
}

const FEEDBACK: readonly { type: 1 | 2 | 3 | 4; title: string; content: string }[] = [
  { type: 2, title: '导航定位偏移', content: '今天早班在隧道出口附近定位偏了两百米左右，轨迹显示绕路，实际没有绕。' },
  { type: 1, title: '希望增加夜间模式', content: '晚上开车看消息屏幕太亮，建议APP增加夜间模式。' },
  { type: 2, title: '消息推送延迟', content: '调度通知有时候过了十几分钟才收到，麻烦看一下。' },
  { type: 3, title: '排班通知太晚', content: '明天的排班今天晚上十点才发，来不及安排，希望提前。' },
  { type: 4, title: '驾驶员卡读卡失败', content: '上车插卡后终端提示读卡失败，换了一张卡也一样。' },
  { type: 1, title: '建议显示当日里程', content: '希望APP首页能显示当天已行驶里程和剩余任务。' },
];

interface Answer<T> { code: number; msg: string; data: T }

export function startAppUsers(opts: AppUserSimOptions): RunningAppUsers {
  const pollMs = opts.pollMs ?? 10_000;
  const chance = opts.feedbackChance ?? 0.01;
  const readDelay = opts.readDelayMs ?? 15_000;
  const stats = { logins: 0, polls: 0, delivered: 0, read: 0, feedback: 0, errors: 0 };
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  async function call<T>(method: 'GET' | 'POST', path: string, token: string | null, body?: unknown): Promise<Answer<T>> {
    const res = await fetch(`${opts.baseUrl}${path}`, {
      method,
      headers: { ...(token ? { 'x-app-token': token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Answer<T>;
  }

  opts.accounts.forEach((account, k) => {
    const rng = Rng.of(opts.seed ?? 19, account.username, 'app-user');
    let token: string | null = null;
    const seen = new Map<number, number>();
    const tick = async () => {
      if (stopped) return;
      try {
        if (!token) {
          const login = await call<{ token: string }>('POST', '/service-app/api/login', null, account);
          if (login.code !== 200) throw new Error(login.msg);
          token = login.data.token;
          stats.logins++;
        }
        stats.polls++;
        const list = await call<{ records: { id: number; readTime: number | null }[] }>('GET', '/service-app/api/notice/list?current=1&size=20', token);
        if (list.code === 401) { token = null; return; }
        const now = Date.now();
        for (const n of list.data.records) {
          if (n.readTime !== null) continue;
          if (!seen.has(n.id)) { seen.set(n.id, now); stats.delivered++; continue; }
          if (now - (seen.get(n.id) ?? now) >= readDelay) {
            const r = await call('POST', '/service-app/api/notice/read', token, { id: n.id });
            if (r.code === 200) stats.read++;
          }
        }
        // Read the replies of my threads (the console shows them as read by the author).
        const mine = await call<{ records: { id: number; unreadForAuthor: number }[] }>('GET', '/service-app/api/feedback/list?current=1&size=10', token);
        for (const t of mine.data.records) if (t.unreadForAuthor > 0) await call('GET', `/service-app/api/feedback/info?id=${t.id}`, token);
        if (rng.next() < chance) {
          const f = FEEDBACK[Math.floor(rng.next() * FEEDBACK.length)]!;
          const r = await call('POST', '/service-app/api/feedback/add', token, f);
          if (r.code === 200) stats.feedback++;
        }
      } catch {
        stats.errors++;
      }
    };
    // Spread the users over the period so they do not all poll at once.
    timers.push(setTimeout(() => {
      void tick();
      timers.push(setInterval(() => void tick(), pollMs));
    }, Math.floor((pollMs * k) / Math.max(1, opts.accounts.length))));
  });

  return {
    stats,
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
    },
  };
}
