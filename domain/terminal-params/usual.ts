/**
 * The usual parameters (常用参数, /information/params/usualParam): what operators change most. The screen
 * shows these ids; its own query / set bits (registry 488, 489) reach these and no other id (server
 * terminal-params `blockRights`), so the list lives here, shared by the console and the server.
 */
export const USUAL_IDS: readonly number[] = [0x0001, 0x0013, 0x0020, 0x0027, 0x0029, 0x002c, 0x0055, 0x0056, 0x0057, 0x0058, 0x0059, 0x005a, 0x0083, 0x0084];
