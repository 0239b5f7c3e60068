import type { RouterVariant } from './login-type.ts';

/** Where `/` goes per router variant (spec §2). */
export const ROOT_ROUTES: Readonly<Record<RouterVariant, string>> = {
  main: '/home/index',
  park: '/parkChargeManage/operation/captureRecord',
  monitor: '/monitor/index',
};

export function isRouterVariant(value: unknown): value is RouterVariant {
  return value === 'main' || value === 'park' || value === 'monitor';
}

/**
 * Where `/` lands a signed-in user. The variant's root when the user may see it and its page is
 * built; otherwise the first built page the user may see, in menu order (a user without the
 * dashboard right must not land on a 404, and nobody lands on a "not built" placeholder: while the
 * dashboard is not built, operators start on the first working screen). `null` when the user may
 * see no built page at all: the console then says so instead of redirecting to a placeholder.
 */
export function rootTargetFor(
  variant: RouterVariant,
  canSee: (path: string) => boolean,
  menuOrder: readonly string[],
  isBuilt: (path: string) => boolean,
): string | null {
  const root = ROOT_ROUTES[variant];
  if (canSee(root) && isBuilt(root)) return root;
  return menuOrder.find((p) => canSee(p) && isBuilt(p)) ?? null;
}
