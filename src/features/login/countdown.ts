import { useCallback, useEffect, useState } from 'react';

interface Clock {
  readonly until: number;
  readonly now: number;
}

/**
 * A countdown in whole seconds: `start(seconds)` begins one (0 stops it), `left` is what remains and
 * re-renders as it drops, reaching 0 when it is over. The login page counts a back-off wait with it.
 */
export function useCountdown(): { left: number; start: (seconds: number) => void } {
  const [clock, setClock] = useState<Clock | null>(null);
  const start = useCallback((seconds: number) => {
    const now = Date.now();
    setClock(seconds > 0 ? { until: now + seconds * 1000, now } : null);
  }, []);
  const running = clock !== null && clock.now < clock.until;
  useEffect(() => {
    if (!running) return;
    // 250 ms: the shown second changes within a quarter second of the real one.
    const timer = setInterval(() => setClock((c) => (c ? { ...c, now: Date.now() } : c)), 250);
    return () => clearInterval(timer);
  }, [running]);
  return { left: clock ? Math.max(0, Math.ceil((clock.until - clock.now) / 1000)) : 0, start };
}
