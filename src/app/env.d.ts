/// <reference types="vite/client" />

/** Router variant chosen at build time (vite.config.ts `define`): main, park or monitor. */
declare const __ROUTER_VARIANT__: string;

interface ImportMetaEnv {
  /** API origin; '' (default) means the console's own origin. */
  readonly VITE_API_BASE?: string;
  /** Address the /operationSystem external entry opens; unset means "not configured". */
  readonly VITE_RISK_CONTROL_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
