import type { RouterVariant } from '../../domain/session/login-type.ts';
import { isRouterVariant } from '../../domain/session/root.ts';

/** The build's router variant (vite.config.ts: ROUTER_VARIANT=main|park|monitor). */
export const ROUTER_VARIANT: RouterVariant = isRouterVariant(__ROUTER_VARIANT__) ? __ROUTER_VARIANT__ : 'main';
