/**
 * Which stream a window of the video wall asks the terminal for (JT/T 1078 0x9101 stream type):
 * 0 main (640×360 and up), 1 sub (320×180 in the simulator). Issue 16: in grids of more than 4
 * windows the sub stream is the default, as in CMSV6-class players — the video bench
 * (bench/video.bench.ts) measured 25 sub streams in one page costing about what 9 main streams cost,
 * and a tile there is ≈ 200 px wide, where the main stream's detail is not visible anyway. The main
 * stream is on demand: a window's own stored choice (spec §9 play-type key) wins, and a maximised
 * window plays the main stream.
 */
import type { StreamType } from './limits.ts';

/** Grids up to this many windows play the main stream by default. */
export const MAIN_STREAM_MAX_GRID = 4;

/**
 * The stream a window plays: its stored play type ('0' main, '1' sub) when there is one, otherwise
 * main in grids of up to 4 windows and sub above.
 */
export function defaultStream(grid: number, stored: string | null | undefined): StreamType {
  if (stored === '0') return 0;
  if (stored === '1') return 1;
  return grid > MAIN_STREAM_MAX_GRID ? 1 : 0;
}
