// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The arrows of README "Layout": each folder may import only the folders listed here (and its own files).
 * suites → fixtures → probes → checks; reports read results, checks and the shared modules; the sandbox
 * uses checks, the shared modules and the platform's client, never probes or reports.
 */
const mayImport = {
  checks: [],
  shared: ['checks'],
  client: ['checks', 'shared'],
  partners: ['checks', 'shared'],
  probes: ['checks', 'shared', 'client', 'partners'],
  fixtures: ['checks', 'shared', 'client', 'partners', 'probes'],
  suites: ['checks', 'shared', 'client', 'partners', 'probes', 'fixtures'],
  reports: ['checks', 'shared', 'partners'],
  sandbox: ['checks', 'shared', 'client'],
};
const layers = Object.keys(mayImport);
// Pure rules: no browser, no network, no files (DESIGN §2), so the sandbox and any tool can run them.
const notInChecks = ['@playwright/test', 'playwright', 'playwright-core', 'node:http', 'node:https', 'node:net', 'node:fs', 'node:fs/promises', 'fastify'];

const arrows = Object.entries(mayImport).map(([layer, allowed]) => ({
  files: [`${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        ...(layer === 'checks'
          ? { paths: notInChecks.map((name) => ({ name, message: 'checks/ holds pure rules: no browser, network or file I/O (DESIGN §2).' })) }
          : {}),
        patterns: layers
          .filter((other) => other !== layer && !allowed.includes(other))
          .map((other) => ({
            group: [`**/${other}/**`, `**/${other}`],
            message: `${layer}/ may import only ${allowed.length ? allowed.map((a) => `${a}/`).join(', ') : 'its own files'}: the arrows run suites → fixtures → probes → checks (README "Layout").`,
          })),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'playwright-report/', 'test-results/', 'reports/out/', 'eslint.config.mjs', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty-pattern': 'off', // Playwright fixtures take `({}, use)`
      '@typescript-eslint/require-await': 'off', // fastify handlers and interface methods are async by contract
      // A file a reader holds in mind at once; past it, split by what the parts are about.
      'max-lines': ['error', { max: 275 }],
    },
  },
  ...arrows,
);
