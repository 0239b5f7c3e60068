/**
 * `npm run bench [-- --quick] [-- name-filter]`: runs every bench/*.bench.ts module in turn and writes
 * bench/results/latest.json plus a readable table. Figures are measured, never asserted: these
 * machines are shared and noisy, so each benchmark reports a ratio against a baseline it runs itself.
 */
import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import type { BenchModule, BenchRecord } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const filters = argv.filter((a) => !a.startsWith('--'));

const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts') && (filters.length === 0 || filters.some((x) => f.includes(x)))).sort();
const all: BenchRecord[] = [];
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as BenchModule;
  const records = await mod.run({ quick });
  for (const r of records) {
    all.push(r);
    const cmp = r.ratio === undefined ? '' : `  (baseline ${fmt(r.baseline ?? NaN)}, ratio ${r.ratio.toFixed(2)}×)`;
    process.stdout.write(`${r.name.padEnd(44)} ${r.metric.padEnd(24)} ${fmt(r.value).padStart(14)} ${r.unit}${cmp}\n`);
  }
}
await mkdir(path.join(here, 'results'), { recursive: true });
const out = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, quick, records: all };
await writeFile(path.join(here, 'results', 'latest.json'), JSON.stringify(out, null, 2) + '\n');
process.stdout.write(`\n${all.length} records written to bench/results/latest.json\n`);

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
}
