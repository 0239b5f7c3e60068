/**
 * Coverage of the specification, as pure functions: which of the screens and calls the spec names
 * are built, and which registered server methods disagree with the call catalogue. Inputs are
 * gathered by tools/coverage/coverage.ts (route registry, page files, the server's route table);
 * the lists come from tools/coverage/spec-lists.json (transcribed from /work/shared/spec).
 */

export interface CatalogueCall {
  readonly service: string;
  /** null where the catalogue states no method. */
  readonly method: string | null;
  /** Full path with the service prefix; null where the catalogue names a call without its path. */
  readonly path: string | null;
  readonly name?: string;
  readonly note?: string;
  /**
   * For a call the catalogue names without its path: the `METHOD /path` keys we chose for it (written down in
   * server/API.md). It counts as built when the server registers every one of them.
   */
  readonly ours?: readonly string[];
}

export interface SpecLists {
  /** Area (top-level route group) → its screen routes. */
  readonly screens: Readonly<Record<string, readonly string[]>>;
  readonly calls: readonly CatalogueCall[];
  readonly parkingServiceNote: string;
}

export interface ServerRoute {
  readonly method: string;
  readonly url: string;
}

export interface CoverageInput {
  readonly spec: SpecLists;
  /** Route keys of the permission registry (type-1 entries). */
  readonly registryRoutes: readonly string[];
  /** Routes that have a page file (src/pages/a/b.page.tsx → /a/b). */
  readonly builtPages: readonly string[];
  /** Every method + path the server registered (HEAD left out: Fastify adds it to each GET). */
  readonly serverRoutes: readonly ServerRoute[];
}

/** `/a/:id/b` and `/a/{id}/b` → `/a/:/b`: parameter names do not matter when paths are compared. */
export function normalisePath(path: string): string {
  return path.replace(/\/(?::[^/]+|\{[^/}]+\})/g, '/:');
}

const callKey = (method: string, path: string) => `${method} ${normalisePath(path)}`;

export interface MethodMismatch {
  readonly path: string;
  readonly catalogue: readonly string[];
  readonly server: readonly string[];
}

/**
 * Paths the catalogue names with a method and the server registers, but not with the catalogue's
 * method: a console written against the catalogue gets 404 from such a route. A method the server
 * registers in addition (POST /role/role_permissions saves what the catalogue's GET reads) breaks
 * no caller; it is listed with the calls beyond the catalogue instead.
 */
export function methodMismatches(calls: readonly CatalogueCall[], serverRoutes: readonly ServerRoute[]): MethodMismatch[] {
  const catalogue = new Map<string, { path: string; methods: Set<string> }>();
  for (const c of calls) {
    if (!c.path || !c.method) continue;
    const key = normalisePath(c.path);
    const entry = catalogue.get(key) ?? { path: c.path, methods: new Set<string>() };
    entry.methods.add(c.method);
    catalogue.set(key, entry);
  }
  const server = new Map<string, Set<string>>();
  for (const r of serverRoutes) {
    if (r.method === 'HEAD') continue;
    const key = normalisePath(r.url);
    server.set(key, (server.get(key) ?? new Set()).add(r.method));
  }
  const out: MethodMismatch[] = [];
  for (const [key, { path, methods }] of catalogue) {
    const registered = server.get(key);
    if (!registered) continue;
    if ([...methods].some((m) => !registered.has(m))) out.push({ path, catalogue: [...methods].sort(), server: [...registered].sort() });
  }
  return out;
}

export interface AreaCoverage {
  readonly area: string;
  readonly total: number;
  readonly built: readonly string[];
  readonly missing: readonly string[];
}

export interface Coverage {
  readonly screens: readonly AreaCoverage[];
  /** Spec screens without a registry entry (no menu entry, no route). */
  readonly screensNotInRegistry: readonly string[];
  /** Registry route leaves and page files the spec does not name. */
  readonly screensBeyondSpec: readonly string[];
  readonly calls: readonly AreaCoverage[];
  /** Catalogue calls named without a path, per service (counted as missing: nothing can match them). */
  readonly callsWithoutPath: Readonly<Record<string, readonly string[]>>;
  /** Registered API calls the catalogue does not list (session, companies, users, roles, exports…). */
  readonly callsBeyondCatalogue: readonly string[];
  readonly methodMismatches: readonly MethodMismatch[];
}

/** Whether the server registers a catalogue call: same method (any, where the catalogue names none) and path. */
function isBuilt(call: CatalogueCall, keys: ReadonlySet<string>, paths: ReadonlySet<string>): boolean {
  if (!call.path) return (call.ours?.length ?? 0) > 0 && call.ours!.every((k) => keys.has(oursKey(k)));
  if (call.method) return keys.has(callKey(call.method, call.path));
  return paths.has(normalisePath(call.path));
}

/** `POST /service-crm/accident/page` → the route key the server table is compared with. */
function oursKey(k: string): string {
  const [method, path] = k.trim().split(/\s+/, 2);
  return callKey(method ?? '', path ?? '');
}

/** The display name of a call: `METHOD /path`, `* /path` without a method, or the spec's words without a path. */
export function callLabel(call: CatalogueCall): string {
  if (!call.path) return call.ours?.length ? `${call.name ?? '(unnamed)'} (ours: ${call.ours.join(', ')})` : (call.name ?? '(unnamed)');
  return `${call.method ?? '*'} ${call.path}`;
}

export function computeCoverage(input: CoverageInput): Coverage {
  const built = new Set(input.builtPages);
  const registry = new Set(input.registryRoutes);
  const specScreens = new Set(Object.values(input.spec.screens).flat());
  const screens = Object.entries(input.spec.screens).map(([area, routes]) => ({
    area,
    total: routes.length,
    built: routes.filter((r) => built.has(r)),
    missing: routes.filter((r) => !built.has(r)),
  }));
  // a registry route with children is a menu folder, not a screen
  const folders = new Set(input.registryRoutes.filter((r) => input.registryRoutes.some((o) => o.startsWith(`${r}/`))));
  const leaves = input.registryRoutes.filter((r) => !folders.has(r) && !r.startsWith('/global'));
  const beyond = [...new Set([...leaves, ...input.builtPages])].filter((r) => !specScreens.has(r)).sort();

  const api = input.serverRoutes.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/service-'));
  const keys = new Set(api.map((r) => callKey(r.method, r.url)));
  const paths = new Set(api.map((r) => normalisePath(r.url)));
  const services = [...new Set(input.spec.calls.map((c) => c.service))];
  const calls = services.map((service) => {
    const list = input.spec.calls.filter((c) => c.service === service);
    return {
      area: service,
      total: list.length,
      built: list.filter((c) => isBuilt(c, keys, paths)).map(callLabel),
      missing: list.filter((c) => !isBuilt(c, keys, paths)).map(callLabel),
    };
  });
  const callsWithoutPath: Record<string, string[]> = {};
  for (const c of input.spec.calls) if (!c.path) (callsWithoutPath[c.service] ??= []).push(callLabel(c));
  // by method and path: a method the catalogue does not name on one of its paths is beyond it too
  const catalogueKeys = new Set(input.spec.calls.filter((c) => c.path).map((c) => (c.method ? callKey(c.method, c.path as string) : normalisePath(c.path as string))));
  for (const c of input.spec.calls) for (const k of c.ours ?? []) catalogueKeys.add(oursKey(k));
  const beyondCatalogue = (r: ServerRoute) => !catalogueKeys.has(callKey(r.method, r.url)) && !catalogueKeys.has(normalisePath(r.url));
  const callsBeyondCatalogue = [...new Set(api.filter(beyondCatalogue).map((r) => `${r.method} ${r.url}`))].sort();
  return {
    screens,
    screensNotInRegistry: [...specScreens].filter((r) => !registry.has(r)),
    screensBeyondSpec: beyond,
    calls,
    callsWithoutPath,
    callsBeyondCatalogue,
    methodMismatches: methodMismatches(input.spec.calls, input.serverRoutes),
  };
}

const sum = (areas: readonly AreaCoverage[], f: (a: AreaCoverage) => number) => areas.reduce((n, a) => n + f(a), 0);
const code = (s: string) => `\`${s}\``;

/** The generated COVERAGE.md (deterministic: no dates, so a stale file shows as a diff). */
export function renderMarkdown(c: Coverage, parkingNote: string): string {
  const L: string[] = [];
  const screensBuilt = sum(c.screens, (a) => a.built.length);
  const screensTotal = sum(c.screens, (a) => a.total);
  const callsBuilt = sum(c.calls, (a) => a.built.length);
  const callsTotal = sum(c.calls, (a) => a.total);
  L.push('# Coverage of the specification');
  L.push('');
  L.push('Generated by `npm run coverage` from the console\'s route registry and page files and the calls the');
  L.push('server registers, against the screens and calls the specification names (`tools/coverage/spec-lists.json`).');
  L.push('Do not edit by hand: a server test fails when this file is stale.');
  L.push('');
  L.push(`**Console: ${screensBuilt} of ${screensTotal} screens built. Server: ${callsBuilt} of ${callsTotal} catalogue calls built.**`);
  L.push('Every other screen is a menu entry marked "未建 / Not built yet" that opens a "not built" page.');
  L.push('');
  L.push('## Screens by area');
  L.push('');
  L.push('| area | built / total | built |');
  L.push('|---|---|---|');
  for (const a of c.screens) L.push(`| ${code(a.area)} | ${a.built.length} / ${a.total} | ${a.built.map((r) => code(r.slice(a.area.length + 1))).join(', ') || '—'} |`);
  L.push(`| **all** | **${screensBuilt} / ${screensTotal}** | |`);
  L.push('');
  L.push('## Calls by service');
  L.push('');
  L.push('| service | built / total |');
  L.push('|---|---|');
  for (const a of c.calls) L.push(`| ${code(a.area)} | ${a.built.length} / ${a.total} |`);
  L.push(`| **all** | **${callsBuilt} / ${callsTotal}** |`);
  L.push('');
  L.push(`The parking service is not counted: the catalogue names only families of calls (${parkingNote.replace(/:.*$/, '').toLowerCase()}), no paths.`);
  L.push('');
  L.push('## Methods that differ from the catalogue');
  L.push('');
  if (c.methodMismatches.length === 0) L.push('None: every registered path the catalogue names uses the catalogue\'s method.');
  else for (const m of c.methodMismatches) L.push(`- ${code(m.path)}: catalogue ${m.catalogue.join(', ')}, server ${m.server.join(', ')}`);
  L.push('');
  L.push('## Missing screens');
  L.push('');
  for (const a of c.screens) if (a.missing.length) L.push(`- ${code(a.area)} (${a.missing.length}): ${a.missing.map((r) => r.slice(a.area.length + 1)).join(', ')}`);
  L.push('');
  L.push('## Missing calls');
  L.push('');
  L.push('`*` marks a call whose method the catalogue does not state; a name without a path is a call the catalogue names without its path; `ours:` gives the paths this project chose for it (server/API.md), counted as built once the server registers them.');
  L.push('');
  for (const a of c.calls) {
    if (!a.missing.length) continue;
    L.push(`### ${a.area} (${a.missing.length} of ${a.total} missing)`);
    L.push('');
    for (const m of a.missing) L.push(`- ${m.includes('/') ? code(m) : m}`);
    L.push('');
  }
  L.push('## Beyond the lists');
  L.push('');
  L.push(`Spec screens without a registry entry: ${c.screensNotInRegistry.map(code).join(', ') || 'none'}.`);
  L.push('');
  L.push(`Registry routes and pages the spec does not name: ${c.screensBeyondSpec.map(code).join(', ') || 'none'}.`);
  L.push('');
  L.push(`Server calls the catalogue does not list (${c.callsBeyondCatalogue.length}; session, company, user and role management the overview describes, exports and media files this project added):`);
  L.push('');
  for (const r of c.callsBeyondCatalogue) L.push(`- ${code(r)}`);
  L.push('');
  return L.join('\n');
}

/** The console summary `npm run coverage` prints: built/total per area and the missing names. */
export function renderSummary(c: Coverage): string {
  const L: string[] = [];
  const line = (a: AreaCoverage) => `  ${a.area.padEnd(22)} ${String(a.built.length).padStart(3)} / ${String(a.total).padEnd(3)}${a.missing.length ? `  missing: ${a.missing.join(', ')}` : ''}`;
  L.push(`Screens: ${sum(c.screens, (a) => a.built.length)} / ${sum(c.screens, (a) => a.total)} built`);
  for (const a of c.screens) L.push(line({ ...a, missing: a.missing.map((r) => r.slice(a.area.length + 1)) }));
  L.push(`Calls: ${sum(c.calls, (a) => a.built.length)} / ${sum(c.calls, (a) => a.total)} built`);
  for (const a of c.calls) L.push(line(a));
  if (c.methodMismatches.length) {
    L.push('Methods that differ from the catalogue:');
    for (const m of c.methodMismatches) L.push(`  ${m.path}: catalogue ${m.catalogue.join(',')}, server ${m.server.join(',')}`);
  }
  return L.join('\n');
}
