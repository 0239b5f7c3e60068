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
 * The root target for a user: the variant's root when visible, else the first visible route in
 * menu order (a user without the dashboard right should not land on a 404), else the variant root.
 */
export function rootTargetFor(variant: RouterVariant, canSee: (path: string) => boolean, menuOrder: readonly string[]): string {
  const root = ROOT_ROUTES[variant];
  if (canSee(root)) return root;
  return menuOrder.find((p) => canSee(p)) ?? root;
}
