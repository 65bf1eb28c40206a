/**
 * `npm run lint` runs this: no import circle, type-only imports included, so every module's dependencies can be
 * read (and loaded) in one order. The folders' arrows are eslint.config.mjs's.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: move what both modules need into a module of its own that neither imports back.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|reports/out|test-results|playwright-report)/' },
  },
};
