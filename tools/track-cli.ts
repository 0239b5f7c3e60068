/**
 * `npm run -s track -- analyze FILE.csv [--stop-minutes M]`: runs the track rules (domain/track) on a
 * CSV and prints one JSON object. Exit 0 with the result on stdout; exit 1 when the file cannot be
 * read or has malformed lines (each as `line N: <what>` on stderr, nothing on stdout); exit 2 on
 * wrong usage. See tools/README.md.
 */
import { readFileSync } from 'node:fs';
import { analyzeTrack } from '../domain/track/analyze.ts';
import type { TrackAnalysis } from '../domain/track/analyze.ts';
import { DEFAULT_STOP_MINUTES } from '../domain/track/stops.ts';
import { parseTrackCsv } from './track-csv.ts';

const USAGE = `Usage: npm run -s track -- analyze FILE.csv [--stop-minutes M]

Reads a CSV with the header time,lng,lat,speed (any column order, rows in any order; time as
ISO 8601 or epoch milliseconds, an ISO time without offset being China time GMT+8; WGS-84 degrees;
speed in km/h) and prints one JSON object:
  {"points": n, "drift": [i], "gaps": [{"from": i, "to": j, "km": x, "continuous": b}],
   "discontinuous": n, "mileageKm": x, "stops": [{"from": i, "to": j, "minutes": m}]}
Indices are 0-based positions in the time-sorted input; km to 3 decimals, minutes to 2.

Options:
  --stop-minutes M   shortest stop to list, in minutes (default ${DEFAULT_STOP_MINUTES})
  --help             this text
Exit codes: 0 result printed; 1 unreadable file or malformed lines (line N: ... on stderr); 2 usage.
`;

class UsageError extends Error {}

interface Args {
  file: string;
  stopMinutes: number;
}

function parseArgs(argv: string[]): Args | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const [command, ...rest] = argv;
  if (command !== 'analyze') throw new UsageError(command === undefined ? 'missing command "analyze"' : `unknown command "${command}"`);
  let file: string | undefined;
  let stopMinutes = DEFAULT_STOP_MINUTES;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--stop-minutes' || arg.startsWith('--stop-minutes=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : rest[++i];
      const minutes = value === undefined || value.trim() === '' ? NaN : Number(value);
      if (!Number.isFinite(minutes) || minutes < 0) {
        throw new UsageError(`--stop-minutes needs a number of minutes ≥ 0, got ${value === undefined ? 'nothing' : `"${value}"`}`);
      }
      stopMinutes = minutes;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option "${arg}"`);
    } else if (file === undefined) {
      file = arg;
    } else {
      throw new UsageError(`one file only, got "${file}" and "${arg}"`);
    }
  }
  if (file === undefined) throw new UsageError('missing FILE.csv');
  return { file, stopMinutes };
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

function main(argv: string[]): number {
  let args: Args | 'help';
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`track: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  let text: string;
  try {
    text = readFileSync(args.file === '-' ? 0 : args.file, 'utf8');
  } catch (e) {
    process.stderr.write(`track: cannot read ${args.file}: ${(e as Error).message}\n`);
    return 1;
  }
  const parsed = parseTrackCsv(text);
  if (!parsed.ok) {
    process.stderr.write(parsed.errors.join('\n') + '\n');
    return 1;
  }
  let r: TrackAnalysis;
  try {
    r = analyzeTrack(parsed.columns, { stopMinutes: args.stopMinutes });
  } catch (e) {
    // Every line parsed, but the track as a whole is refused (e.g. times centuries apart).
    if (!(e instanceof RangeError)) throw e;
    process.stderr.write(`track: ${e.message}\n`);
    return 1;
  }
  const out = {
    points: r.points,
    drift: Array.from(r.drift),
    gaps: r.gaps.map((g) => ({ from: g.from, to: g.to, km: round(g.km, 3), continuous: g.continuous })),
    discontinuous: r.discontinuous,
    mileageKm: round(r.mileageKm, 3),
    stops: r.stops.map((s) => ({ from: s.from, to: s.to, minutes: round(s.minutes, 2) })),
  };
  process.stdout.write(JSON.stringify(out) + '\n');
  return 0;
}

process.exitCode = main(process.argv.slice(2));
