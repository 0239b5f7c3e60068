/**
 * `npm run coverage`: compares the console's route registry and page files and the server's
 * registered calls with the screens and calls the specification names, prints built/total per area
 * with the missing names, and writes COVERAGE.md (which README and ARCHITECTURE link to).
 * `--check` writes nothing and exits 1 when COVERAGE.md is stale (a server test does the same).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PERMISSION_REGISTRY } from '../../domain/permissions/registry.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { computeCoverage, renderMarkdown, renderSummary, type Coverage, type CoverageInput, type ServerRoute, type SpecLists } from './model.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const COVERAGE_FILE = path.join(ROOT, 'COVERAGE.md');

export function readSpecLists(): SpecLists {
  return JSON.parse(readFileSync(path.join(ROOT, 'tools/coverage/spec-lists.json'), 'utf8')) as SpecLists;
}

/** `src/pages/a/b.page.tsx` → `/a/b` (the console's page convention, src/app/pages.ts). */
export function builtPages(dir = path.join(ROOT, 'src/pages')): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.page.tsx')) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push(`/${path.relative(path.join(ROOT, 'src/pages'), file).split(path.sep).join('/').replace(/\.page\.tsx$/, '')}`);
  }
  return out.sort();
}

/** Every route the server registers, read from the app's route table (filled by an onRoute hook). */
export async function serverRoutes(): Promise<ServerRoute[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-coverage-'));
  try {
    const config = loadConfig({}, {
      dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', seedVehicles: 5, seedFleetsPerBranch: 1, consoleDir: path.join(dataDir, 'no-console'),
    });
    const app = await buildApp(config);
    try {
      await app.ready();
      return app.routeTable.filter((r) => r.method !== 'HEAD').map((r) => ({ method: r.method, url: r.url }));
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function gatherInput(): Promise<CoverageInput> {
  return {
    spec: readSpecLists(),
    registryRoutes: PERMISSION_REGISTRY.filter((e) => e.type === 1).map((e) => e.key),
    builtPages: builtPages(),
    serverRoutes: await serverRoutes(),
  };
}

export async function generate(): Promise<{ coverage: Coverage; markdown: string }> {
  const input = await gatherInput();
  const coverage = computeCoverage(input);
  return { coverage, markdown: renderMarkdown(coverage, input.spec.parkingServiceNote) };
}

async function main(): Promise<void> {
  const { coverage, markdown } = await generate();
  console.log(renderSummary(coverage));
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(COVERAGE_FILE, 'utf8');
    } catch {
      // a missing file is stale too
    }
    if (current !== markdown) {
      console.error('\nCOVERAGE.md is stale: run npm run coverage and commit it.');
      process.exit(1);
    }
    return;
  }
  writeFileSync(COVERAGE_FILE, markdown);
  console.log(`\nwrote ${path.relative(process.cwd(), COVERAGE_FILE)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
