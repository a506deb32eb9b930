// The linter of the project: ESLint with typescript-eslint's type-checked rules, chosen over Biome
// because only the type-aware rules see a promise left unawaited in a Playwright test
// (`request.get(...)`, `expect(...).resolves`): a test that cannot fail. Layout is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'conformance-report/**',
      'test-results/**',
      'bench-results/**',
      'kill-matrix/**',
      'blob-report/**',
      'playwright-report/**',
      'dist/**',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Playwright's fixture signature is `async ({}, use) => ...`: the empty pattern is its idiom.
      'no-empty-pattern': 'off',
      // Playwright's test bodies and the transport's interfaces are async by signature, awaited or not.
      '@typescript-eslint/require-await': 'off',
      // Interfaces here declare functions with method syntax; nothing relies on `this`.
      '@typescript-eslint/unbound-method': 'off',
      // Rest siblings are how a test drops a field from a call; a leading _ names what is dropped on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // The two plain JavaScript entry points (the bin and the installed suite's loader) are outside the
    // TypeScript project: linted, but without type information.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The project's own tests read reports and answers as parsed JSON and assert on their fields.
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
