/**
 * Login variants (spec §2). One form serves every login path; a variant differs in title/branding
 * and in the login type it stores, which later picks the login page to return to.
 */
export type LoginType =
  | 'default'
  | 'other'
  | 'freight'
  | 'monitor'
  | 'zhanting'
  | 'zb'
  | 'jhx'
  | 'scenic'
  | 'yw'
  | 'kx'
  | 'mm'
  | 'park';

export const LOGIN_TYPES: readonly LoginType[] = [
  'default', 'other', 'freight', 'monitor', 'zhanting', 'zb', 'jhx', 'scenic', 'yw', 'kx', 'mm', 'park',
];

export function isLoginType(value: unknown): value is LoginType {
  return typeof value === 'string' && (LOGIN_TYPES as readonly string[]).includes(value);
}

export type RouterVariant = 'main' | 'park' | 'monitor';

export interface LoginRoute {
  readonly path: string;
  readonly loginType: LoginType;
  /** Only some router variants have the route (spec §2: /parkLogin). */
  readonly variants?: readonly RouterVariant[];
}

export const LOGIN_ROUTES: readonly LoginRoute[] = [
  { path: '/login', loginType: 'default' },
  { path: '/otherLogin', loginType: 'other' },
  { path: '/freightLogin', loginType: 'freight' },
  { path: '/monitorLogin', loginType: 'monitor' },
  { path: '/zhantingLogin', loginType: 'zhanting' },
  { path: '/zbLogin', loginType: 'zb' },
  { path: '/jhxLogin', loginType: 'jhx' },
  { path: '/scenicLogin', loginType: 'scenic' },
  { path: '/ywSingleLogin', loginType: 'yw' },
  { path: '/kxLogin', loginType: 'kx' },
  { path: '/mmLogin', loginType: 'mm' },
  { path: '/parkLogin', loginType: 'park', variants: ['park'] },
];

export function loginRoutesFor(variant: RouterVariant): LoginRoute[] {
  return LOGIN_ROUTES.filter((r) => !r.variants || r.variants.includes(variant));
}

/** Strips a trailing slash so `/login/` and `/login` match alike. */
function normalise(path: string): string {
  const p = path.split(/[?#]/)[0] ?? '';
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

export function isLoginPath(path: string): boolean {
  const p = normalise(path);
  return LOGIN_ROUTES.some((r) => r.path === p);
}

export function loginTypeOfPath(path: string): LoginType | undefined {
  const p = normalise(path);
  return LOGIN_ROUTES.find((r) => r.path === p)?.loginType;
}

/**
 * The login page to return to (spec §2 route guard): scenic when the stored type is scenic or the
 * path contains `scenicWeb`; jhx, yw, kx and mm have their own pages; everything else uses /login.
 */
export function loginPathFor(loginType: LoginType | null | undefined, currentPath = ''): string {
  if (loginType === 'scenic' || currentPath.includes('scenicWeb')) return '/scenicLogin';
  switch (loginType) {
    case 'jhx':
      return '/jhxLogin';
    case 'yw':
      return '/ywSingleLogin';
    case 'kx':
      return '/kxLogin';
    case 'mm':
      return '/mmLogin';
    default:
      return '/login';
  }
}

/** The login page with `?redirect=<path>` (the path is left out when it is itself a login page or root). */
export function loginUrlFor(loginType: LoginType | null | undefined, currentPath: string): string {
  const base = loginPathFor(loginType, currentPath);
  if (!currentPath || currentPath === '/' || isLoginPath(currentPath)) return base;
  return `${base}?redirect=${encodeURIComponent(currentPath)}`;
}
