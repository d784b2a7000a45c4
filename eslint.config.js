// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Import boundaries (DESIGN.md rule 7):
// - scenes/ imports no React UI, no network, no Telegram SDK, nothing from src/, and touches no DOM;
// - src/ reaches Pixi only through a scene's public entry (scenes/<name>/index.ts[x]);
// - the client imports contract/ for types only (and contract/money.ts, the dependency-free money
//   parser and formatter, for values); server/ and contract/ never import the client.
const network = ['ofetch', 'ws', 'pg', '@electric-sql/*'];
const telegram = ['@telegram-apps/*', '@tonconnect/*'];

export default tseslint.config(
  {
    ignores: ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', 'bench/results'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // scenes run in a worker: only the worker's globals exist (tsconfig there has no DOM library either)
    files: ['scenes/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'pixi.js',
              message: 'src/ reaches Pixi only through a scene public component (scenes/<name>).',
            },
            {
              name: '@pixi/react',
              message: 'src/ reaches Pixi only through a scene public component (scenes/<name>).',
            },
            {
              // DESIGN.md rule 8: no second way to hold server state beside the query atoms
              name: '@tanstack/react-query',
              importNames: [
                'useQuery',
                'useQueries',
                'useSuspenseQuery',
                'useSuspenseQueries',
                'useInfiniteQuery',
                'useSuspenseInfiniteQuery',
                'usePrefetchQuery',
                'usePrefetchInfiniteQuery',
                'useMutation',
                'useMutationState',
                'useIsMutating',
                'useIsFetching',
                'useQueryClient',
              ],
              message:
                'Server state lives in query atoms (DESIGN.md rule 8): atomWithQuery / atomWithMutation from jotai-tanstack-query, keys from src/state/queries.ts.',
            },
          ],
          patterns: [
            {
              regex: '(^|/)contract/(?!money(\\.ts)?$)',
              allowTypeImports: true,
              message: 'The client imports contract/ types only (import type ...).',
            },
            {
              regex: '(^|/)scenes/[^/]+/(?!index(\\.tsx?)?$).+',
              message: 'Import a scene through its public entry scenes/<name> (index.ts).',
            },
            { regex: '(^|/)server/', message: 'The client never imports server code.' },
            { group: ['@pixi/*'], message: 'src/ reaches Pixi only through a scene public component.' },
            { group: ['pixi.js/*'], message: 'src/ reaches Pixi only through a scene public entry.' },
          ],
        },
      ],
    },
  },
  {
    files: ['scenes/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'Scene code touches no window: take input as a plan, emit events.' },
        { name: 'document', message: 'Scene code touches no DOM.' },
        { name: 'localStorage', message: 'Scene code touches no DOM storage.' },
        { name: 'fetch', message: 'Scenes do no network.' },
        {
          name: 'navigator',
          message: 'Scene code reads no navigator: the app passes what it needs in a plan.',
        },
        { name: 'WebSocket', message: 'Scenes do no network.' },
        { name: 'XMLHttpRequest', message: 'Scenes do no network.' },
        {
          name: 'requestAnimationFrame',
          message: 'One frame loop: the runtime (scenes/runtime/host.ts) calls frame() on every scene.',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression',
          message:
            'No dynamic imports in scenes: the runtime bundles every scene (the app loads the runtime lazily).',
        },
        {
          selector:
            'MemberExpression[object.name=/^(globalThis|self)$/][property.name=/^(document|window|navigator|localStorage|fetch|WebSocket|XMLHttpRequest|requestAnimationFrame)$/]',
          message:
            'Scene code touches no DOM, network or frame loop of its own, not even through globalThis.',
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              message: 'Scenes are plain Pixi views driven by the runtime; React lives in src/.',
            },
            {
              name: 'react-dom',
              message: 'Scenes are plain Pixi views driven by the runtime; React lives in src/.',
            },
            {
              name: '@pixi/react',
              message: 'Scenes are plain Pixi views driven by the runtime (scene contract).',
            },
          ],
          patterns: [
            { group: [...network], message: 'Scenes do no network.' },
            { group: [...telegram], message: 'Scenes do not touch the Telegram SDK or the wallet.' },
            { regex: '(^|/)src/', message: 'Scenes import nothing from the React app (src/).' },
            { regex: '(^|/)server/', message: 'Scenes import nothing from the server.' },
            {
              group: ['react-router', 'react-i18next', 'i18next', 'howler'],
              message: 'Scenes emit events; the app does UI, text and sound.',
            },
          ],
        },
      ],
    },
  },
  {
    // the one frame loop
    files: ['scenes/runtime/host.ts'],
    rules: {
      'no-restricted-globals': 'off',
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(src|server|scenes)/', message: 'contract/ stands alone.' }] },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(src|scenes)/', message: 'The server never imports client code.' }] },
      ],
    },
  },
);
