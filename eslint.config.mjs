// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The arrows of docs/DEVELOPMENT.md "Layout": each folder may import only the folders listed here (and its own
 * files). checks/ holds pure rules; profile/ the profile and its schema; html/ the escaping template; redaction/
 * the masking; client/ how the platform calls out; run/ the run's plan, records and identity. suites → fixtures →
 * probes → client → profile → checks; reports read records and never probes or fixtures; the sandbox uses
 * checks, the profile, the client and the HTML, never probes, reports or partners; the population check (DESIGN §7)
 * judges with the rules and writes its own HTML.
 */
const mayImport = {
  checks: [],
  profile: ['checks'],
  html: [],
  redaction: ['checks', 'profile'],
  client: ['checks', 'profile'],
  partners: ['checks', 'profile', 'redaction'],
  run: ['checks', 'profile', 'redaction', 'partners'],
  probes: ['checks', 'profile', 'html', 'redaction', 'client', 'partners'],
  fixtures: ['checks', 'profile', 'html', 'redaction', 'client', 'partners', 'probes', 'run'],
  suites: ['checks', 'profile', 'client', 'partners', 'probes', 'fixtures', 'run'],
  reports: ['checks', 'profile', 'html', 'redaction', 'partners', 'run'],
  sandbox: ['checks', 'profile', 'html', 'client'],
  population: ['checks', 'html'],
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
            message: `${layer}/ may import only ${allowed.length ? allowed.map((a) => `${a}/`).join(', ') : 'its own files'}: the arrows run suites → fixtures → probes → client → profile → checks (docs/DEVELOPMENT.md "Layout").`,
          })),
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'playwright-report/',
      'test-results/',
      'reports/out/',
      'eslint.config.mjs',
      '.dependency-cruiser.cjs', // Other parties' servers, each in its library's own language and style.
      'test/fixtures/oauth-stacks/',
    ],
  },
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
  {
    // Playwright records a browser call's arguments as a step every reporter stores: a probe navigates and
    // types through probes/unrecorded.ts, where a sign-on link's code or a typed password stays in the worker.
    files: ['probes/**/*.ts'],
    ignores: ['probes/unrecorded.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(goto|fill|type|pressSequentially|insertText)$/]',
          message: "Playwright stores this call's arguments in every report: use navigate() or fillField() of probes/unrecorded.ts.",
        },
      ],
    },
  },
);
