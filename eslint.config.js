import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/test-results/**', '**/playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Tests wait for conditions, never for a fixed time (STYLE.md); focused tests never land.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/e2e/**/*.ts', '**/test/**/*.ts'],
    rules: {
      // Tests probe JSON answers field by field; typing every response shape there adds nothing.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-properties': [
        'error',
        { property: 'waitForTimeout', message: 'Wait for a condition, not for a fixed time.' },
        { object: 'it', property: 'only', message: 'No focused tests.' },
        { object: 'test', property: 'only', message: 'No focused tests.' },
        { object: 'describe', property: 'only', message: 'No focused tests.' },
      ],
    },
  },
);
