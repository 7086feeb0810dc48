import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // The web app's layers point down: pages → layout → components, and api/ below pages and
  // layout (docs/web-architecture.md). Tests may read across layers.
  ...[
    { layer: 'api', above: ['pages', 'layout'] },
    { layer: 'components', above: ['pages', 'layout'] },
    { layer: 'layout', above: ['pages'] },
  ].map(({ layer, above }) => ({
    files: [`apps/web/src/${layer}/**`],
    ignores: ['**/*.test.*'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: above.map((name) => ({ group: [`**/${name}/**`, `**/${name}`], message: `${layer}/ sits below ${name}/: move what both need down.` })) },
      ],
    },
  })),
);
