/**
 * Lazily loaded route components. Unlike TanStack's lazyRouteComponent, a failed chunk is not
 * silently answered with a page reload: the error reaches the route's error boundary, which shows
 * the load error with a retry (spec §8). `retry` re-imports; a second failure reloads the page.
 */
import { use, type ComponentType, type ReactElement } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

export interface LazyComponent<P extends object> {
  (props: P): ReactElement;
  preload: () => Promise<void>;
  displayName?: string;
}

const failedLoaders = new Set<() => void>();

/** Forgets every failed chunk so the next render imports it again. */
export function forgetFailedLoads(): void {
  for (const reset of failedLoaders) reset();
  failedLoaders.clear();
}

export function lazyComponent<P extends object>(loader: Loader<P>, name = 'LazyPage'): LazyComponent<P> {
  let promise: Promise<void> | undefined;
  let Comp: ComponentType<P> | undefined;
  const load = (): Promise<void> => {
    promise ??= loader().then(
      (mod) => {
        Comp = mod.default;
      },
      (err: unknown) => {
        failedLoaders.add(() => {
          promise = undefined;
        });
        throw err;
      },
    );
    return promise;
  };
  const Lazy = ((props: P) => {
    if (!Comp) use(load());
    const C = Comp as ComponentType<P>;
    return <C {...props} />;
  }) as LazyComponent<P>;
  Lazy.preload = () => load().catch(() => undefined);
  Lazy.displayName = name;
  return Lazy;
}

/** True for the errors browsers raise when a code chunk or stylesheet cannot be fetched. */
export function isLoadError(error: unknown): boolean {
  const msg = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk .* failed|Failed to load module script/i.test(
    msg,
  );
}
