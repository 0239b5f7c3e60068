// Lint enforces the architecture; each restriction says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noFocusedTests = {
  selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']",
  message: 'A focused test silently skips the rest of the suite.',
};
const noExportStar = {
  selector: 'ExportAllDeclaration',
  message: 'Name what a module re-exports: `export *` hides where a symbol comes from.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'proto/generated/**', 'bench/results/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-restricted-syntax': ['error', noFocusedTests, noExportStar],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'crypto', 'os'], message: 'domain/ is shared with the browser and workers: no Node modules.' },
          { group: ['react', 'react-dom', '@mantine/*', 'maplibre-gl', '@deck.gl/*'], message: 'domain/ holds pure rules: no UI libraries.' },
          { group: ['**/src/**', '**/server/**', '**/workers/**'], message: 'domain/ depends on nothing in the project.' },
        ],
      }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/server/**'], message: 'The console talks to the server over HTTP and websockets only.' }],
      }],
    },
  },
  {
    files: ['server/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/src/**', '**/workers/**'], message: 'The server never imports console code; share rules through domain/.' }],
      }],
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs}', 'bench/**/*.{ts,mjs}', 'tools/**/*.{ts,mjs}', '*.config.{ts,js}', '.ci/**'],
    languageOptions: { globals: { ...globals.node } },
  },
);
