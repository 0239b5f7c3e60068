/**
 * Global load failures: Vite fires 'vite:preloadError' when a preloaded chunk or stylesheet fails
 * (spec §8 "a failed code chunk or stylesheet load gives a load error"). The root layout shows a
 * banner with a retry (page reload) while `loadError.message` is set, unless a route's error
 * boundary already shows the same failure (`shownByRoutes` > 0).
 */
import { proxy } from 'valtio';

export const loadError = proxy<{ message: string | null; shownByRoutes: number }>({ message: null, shownByRoutes: 0 });

export function watchPreloadErrors(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    loadError.message = payload instanceof Error ? payload.message : String(payload ?? 'preload error');
  });
}
