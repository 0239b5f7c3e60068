/**
 * Import cycles in the console's sources. A cycle makes module evaluation order depend on which
 * file is imported first (a binding read during evaluation is still undefined) and ties unrelated
 * screens into one unit: the router once reached the login pages and the shell, which imported
 * `navigateHref` back from the router (12 files in one circle).
 *
 * The graph counts static imports and re-exports that survive compilation (`import type` and
 * `export type` do not) and dynamic `import('…')` with a literal specifier: a lazily loaded page
 * that imports its loader back is still a circle in the design. Bare specifiers (packages) and
 * `import.meta.glob` patterns are not followed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Specifiers a file imports at run time (static, re-export, literal dynamic import). */
export function runtimeImports(fileName: string, text: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      // `import type {…}` and imports whose every named binding is `type` are erased
      const typeOnly = clause?.isTypeOnly === true
        || (clause !== undefined && !clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings)
          && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The project file a specifier names, or undefined for packages and files that do not exist. */
export function resolveSpecifier(fromFile: string, specifier: string, root: string): string | undefined {
  const bare = specifier.split('?')[0] ?? specifier;
  let base: string;
  if (bare.startsWith('./') || bare.startsWith('../')) base = path.resolve(path.dirname(fromFile), bare);
  else if (bare.startsWith('/')) base = path.join(root, bare); // Vite resolves /src/… from the project root
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function sourceFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFilesUnder(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The run-time import graph of every non-test source under `dirs`, following imports anywhere inside `root`. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  const queue = dirs.flatMap((d) => sourceFilesUnder(path.join(root, d)));
  while (queue.length) {
    const file = queue.pop() as string;
    if (graph.has(file)) continue;
    const targets: string[] = [];
    if (/\.tsx?$/.test(file)) {
      for (const spec of runtimeImports(file, readFileSync(file, 'utf8'))) {
        const target = resolveSpecifier(file, spec, root);
        if (target && !target.includes(`${path.sep}node_modules${path.sep}`)) targets.push(target);
      }
    }
    graph.set(file, targets);
    queue.push(...targets.filter((t) => !graph.has(t)));
  }
  return graph;
}

/**
 * Every import circle as one file path per strongly connected component (Tarjan), each cycle
 * written as `a → b → … → a`; a file importing itself counts.
 */
export function findCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) strong(v);
  return components.map((c) => cycleThrough(graph, new Set(c), c[c.length - 1] as string));
}

/** One concrete circle inside a component, starting and ending at `start` (breadth-first: shortest). */
function cycleThrough(graph: ImportGraph, members: ReadonlySet<string>, start: string): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const chain: string[] = [];
        for (let u = v; u !== start; u = prev.get(u) as string) chain.unshift(u);
        return [start, ...chain, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
