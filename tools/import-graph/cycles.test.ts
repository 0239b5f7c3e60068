import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, importGraph, runtimeImports } from './cycles.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('import cycles in src/', () => {
  // Parses every file under src/ (≈1,000): seconds, more with another test file beside it on 2 cores.
  it('has none (a screen importing navigation from the router that lazily imports it closes one)', { timeout: 60_000 }, () => {
    const cycles = findCycles(importGraph(root, ['src'])).map((c) => c.map((f) => path.relative(root, f)).join(' → '));
    expect(cycles).toEqual([]);
  });
});

describe('the cycle finder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };

  it('finds the router → lazily loaded page → router circle the console once had', () => {
    write('src/app/router.tsx', "const Login = () => import('../pages/Login.tsx');\nexport const go = 1;\n");
    write('src/pages/Login.tsx', "import { go } from '../app/router.tsx';\nexport default go;\n");
    write('src/ok.ts', "import type { X } from './types.ts';\nexport type { Y } from './types.ts';\nimport React from 'react';\n");
    write('src/types.ts', "import { ok } from './ok.ts';\nexport type X = 1; export type Y = 2; void ok;\n");
    const cycles = findCycles(importGraph(dir, ['src'])).map((c) => c.map((f) => path.relative(dir, f)));
    // the type-only edges ok.ts → types.ts are erased at build time: no circle there
    expect(cycles).toHaveLength(1);
    expect(new Set(cycles[0])).toEqual(new Set(['src/app/router.tsx', 'src/pages/Login.tsx']));
    expect(cycles[0]?.[0]).toBe(cycles[0]?.at(-1));
  });

  it('counts a file that imports itself', () => {
    expect(findCycles(new Map([['a', ['a']]]))).toEqual([['a', 'a']]);
  });

  it('reads runtime imports only: value, re-export and literal dynamic import, not types', () => {
    const text = [
      "import a from './a.ts';",
      "import { type B } from './b.ts';",
      "import { type C, c } from './c.ts';",
      "export { d } from './d.ts';",
      "export type { E } from './e.ts';",
      "const f = () => import('./f.tsx');",
      "import type G from './g.ts';",
    ].join('\n');
    expect(runtimeImports('x.ts', text).sort()).toEqual(['./a.ts', './c.ts', './d.ts', './f.tsx']);
  });
});
