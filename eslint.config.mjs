import js from '@eslint/js';
import jest from 'eslint-plugin-jest';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/src/generated/**',
      '**/.turbo/**',
      '.tools/**',
      '**/data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': 'error',
    },
  },
  {
    // The domain holds the rules over plain data: no web framework, no database
    // client or generated code, no configuration, no wire shapes (src/wire, src/http),
    // no storage module and no database error classifiers.
    files: ['apps/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@repo/http-errors',
              importNames: ['isUniqueConstraintViolation', 'isForeignKeyConstraintViolation'],
              message: 'database outcomes reach the domain as store results',
            },
          ],
          patterns: [
            { group: ['express', 'express/*'], message: 'the domain knows no HTTP framework' },
            { group: ['@prisma/*', 'pg', '@electric-sql/*'], message: 'the domain knows no database client' },
            {
              group: [
                '**/generated/**',
                '**/db/**',
                '**/db',
                '**/config',
                '**/http/**',
                '**/wire/**',
                '**/api/**',
                '**/storage/**',
                '**/compose',
              ],
              message: 'the domain imports only the domain (and the HTTP error constructors)',
            },
          ],
        },
      ],
    },
  },
  {
    // Layers look down only: the HTTP layer is given services (src/compose.ts builds them) and
    // never reaches the database itself.
    files: ['apps/*/src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/**', '**/db', '**/compose'],
              message: 'src/http is given services: src/compose.ts builds them on the database',
            },
          ],
        },
      ],
    },
  },
  {
    // What src/http uses, src/http does not give: the wire shapes are src/wire's.
    files: ['apps/*/src/db/**/*.ts', 'apps/*/src/events/**/*.ts', 'apps/*/src/wire/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/http', '**/compose'],
              message: 'only src/compose.ts and main.ts see every layer; wire shapes are in src/wire',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    ...jest.configs['flat/recommended'],
    rules: {
      ...jest.configs['flat/recommended'].rules,
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', '**.expect', 'fc.assert'] }],
    },
  },
);
