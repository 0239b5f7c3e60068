/**
 * Accelerated time for the wall soak (imported before anything else): every `setInterval` of the page
 * runs `accel` times faster, so the panels' refreshes (TanStack Query's refetchInterval), the clock and
 * the title bar live through 30 minutes in a few real minutes. Animation frames stay at the display's
 * rate (what a frame costs is the figure); alarms are generated at the accelerated rate in main.tsx.
 */
const accel = Math.max(1, Number(new URLSearchParams(location.search).get('accel') ?? '1'));
const real = window.setInterval.bind(window);
window.setInterval = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => real(handler, Math.max(1, (ms ?? 0) / accel), ...args)) as typeof window.setInterval;
export const ACCEL = accel;
