/**
 * The page convention: route `/a/b/c` is the default export of `src/pages/a/b/c.page.tsx`.
 * Files are discovered at build time and each becomes its own lazily loaded chunk.
 */
import type { ComponentType } from 'react';

export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

const modules = import.meta.glob<PageModule>('/src/pages/**/*.page.tsx');

/** `/src/pages/system/user.page.tsx` → `/system/user`. */
export function routeOfPageFile(file: string): string {
  return file.replace(/^\/src\/pages/, '').replace(/\.page\.tsx$/, '');
}

export const PAGE_LOADERS: ReadonlyMap<string, PageLoader> = new Map(
  Object.entries(modules).map(([file, load]) => [routeOfPageFile(file), load]),
);

export function pageLoaderFor(route: string): PageLoader | undefined {
  return PAGE_LOADERS.get(route);
}
