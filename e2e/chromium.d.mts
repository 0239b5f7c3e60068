export declare const CHROMIUM_MISSING: string;
export declare function findChromium(env?: NodeJS.ProcessEnv): string | undefined;
