import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageVisitTracker, VISIT_SETTLE_MS } from './visits.ts';

describe('page visits reported by the router', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports the page the user stops on, once, and not the pages clicked through or hidden', async () => {
    const sent: string[] = [];
    const track = pageVisitTracker({ canSee: (r) => r !== '/system/role', send: async (p) => void sent.push(p) });
    track('/information/vehicle');
    vi.advanceTimersByTime(VISIT_SETTLE_MS / 2);
    track('/system/user'); // clicked on before the first settled
    vi.advanceTimersByTime(VISIT_SETTLE_MS);
    track('/system/user/'); // the same page again (a list's query changed): no new visit
    vi.advanceTimersByTime(VISIT_SETTLE_MS);
    track('/system/role'); // not visible to this user
    track('/no/such/page'); // not a registry page
    track('/information/vehicle');
    vi.advanceTimersByTime(VISIT_SETTLE_MS);
    expect(sent).toEqual(['/system/user', '/information/vehicle']);
  });
});
