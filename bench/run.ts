/**
 * `npm run bench [-- --quick] [-- --rounds N] [-- name-filter …]`: runs every bench/*.bench.ts module
 * (or those whose file name contains a filter) N rounds each (default 3), one module after another so no
 * bench runs on another's time, and publishes the medians with their spread:
 *   - bench/RESULTS.json: machine-readable, one entry per bench file (a partial run replaces only its own);
 *   - bench/RESULTS.md: the table generated from it, which ARCHITECTURE.md and the README quote;
 *   - bench/results/latest.json: this run's raw per-round records (not committed).
 * Figures are measured, never asserted: each benchmark reports a ratio against a baseline it runs itself.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { aggregate, fmt, merge, renderMarkdown, type BenchResult, type ResultsFile } from './results.ts';
import type { BenchModule, BenchRecord } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 3;
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) {
  process.stderr.write('--rounds takes a whole number from 1 to 50\n');
  process.exit(2);
}
const filters = argv.filter((a, i) => !a.startsWith('--') && !(roundsAt >= 0 && i === roundsAt + 1));

const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts') && (filters.length === 0 || filters.some((x) => f.includes(x)))).sort();
if (files.length === 0) {
  process.stderr.write(`no bench/*.bench.ts matches ${filters.join(', ')}\n`);
  process.exit(2);
}

const context = {
  commit: gitCommit(),
  machine: `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, no GPU: ${process.env.BENCH_GPU ?? 'software WebGL'}`,
  node: process.version,
  quick,
  rounds,
};

const raw: Record<string, BenchRecord[][]> = {};
const fresh: BenchResult[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as BenchModule;
  const perRound: BenchRecord[][] = [];
  const failures: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    process.stdout.write(`\n== ${file} · round ${round}/${rounds}\n`);
    try {
      const records = await mod.run({ quick });
      perRound.push(records);
      for (const r of records) {
        const cmp = r.ratio === undefined ? '' : `  (baseline ${fmt(r.baseline ?? NaN)}, ratio ${r.ratio.toFixed(2)}×)`;
        process.stdout.write(`${r.name.padEnd(44)} ${r.metric.padEnd(24)} ${fmt(r.value).padStart(14)} ${r.unit}${cmp}\n`);
      }
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`round ${round}: ${message}`);
      process.stdout.write(`round ${round} failed: ${message}\n`);
    }
  }
  // A run of one part of a bench (BENCH_FLEET=month|day of report-engine, hours each) is its own entry, so the
  // parts measured in different runs each keep their date and commit instead of replacing one another.
  const entry = process.env.BENCH_FLEET ? `${file} (BENCH_FLEET=${process.env.BENCH_FLEET})` : file;
  raw[entry] = perRound;
  fresh.push({ file: entry, date: new Date().toISOString(), ...context, figures: aggregate(perRound), failures });
}

await mkdir(path.join(here, 'results'), { recursive: true });
await writeFile(path.join(here, 'results', 'latest.json'), JSON.stringify({ ...context, date: new Date().toISOString(), raw }, null, 2) + '\n');
const jsonPath = path.join(here, 'RESULTS.json');
const previous = existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as ResultsFile) : undefined;
const results = merge(previous, fresh);
await writeFile(jsonPath, JSON.stringify(results, null, 2) + '\n');
await writeFile(path.join(here, 'RESULTS.md'), renderMarkdown(results));
const failed = fresh.reduce((n, b) => n + b.failures.length, 0);
process.stdout.write(`\n${fresh.reduce((n, b) => n + b.figures.length, 0)} figures from ${files.length} bench file(s) × ${rounds} round(s) written to bench/RESULTS.md and bench/RESULTS.json${failed ? `; ${failed} round(s) failed` : ''}\n`);
if (failed) process.exitCode = 1;

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.'], { cwd: path.dirname(here), encoding: 'utf8' }).trim();
    return dirty ? `${sha}+changes` : sha;
  } catch {
    return 'unknown';
  }
}
