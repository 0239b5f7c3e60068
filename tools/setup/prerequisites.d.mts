export interface Machine {
  readonly chromium: boolean;
  readonly cjkFont: boolean;
  readonly chromiumPath?: string | undefined;
  readonly isRoot: boolean;
  readonly passwordlessSudo: boolean;
  readonly aptGet: boolean;
}
export type SetupDecision =
  | { readonly kind: 'ready' }
  | { readonly kind: 'install'; readonly packages: string[]; readonly sudo: boolean }
  | { readonly kind: 'stop'; readonly missing: string[]; readonly message: string; readonly command?: string };
export declare const CHROMIUM_PACKAGE: string;
export declare const CJK_FONT_PACKAGE: string;
export declare function decideSetup(machine: Machine): SetupDecision;
export declare function installCommands(decision: Extract<SetupDecision, { kind: 'install' }>): string[][];
export declare function hasCjkFont(platform?: NodeJS.Platform): boolean;
export declare function probeMachine(env?: NodeJS.ProcessEnv): Machine;
