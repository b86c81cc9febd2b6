/**
 * The layers of the repository, checked by `npm run lint:boundaries` (part of `npm test`):
 *
 * - conformance/ is a client of any implementation of the interface: it never imports the server (src/);
 * - the catalog's core (src/domain, src/kinds, src/store) knows nothing of HTTP: no express, no
 *   src/http, and nothing of the layers built on it (src/handlers, src/admin); its tests may drive
 *   it through the API;
 * - nothing the product ships or runs (src/, conformance/, bin/) imports test code;
 * - no module imports itself through a cycle of imports that run.
 *
 * Type-only imports count for the layers: they couple them as much as any other import.
 */

/** Test code: test files and the test tree (the test kit, test/kit.ts, and the self-test's faulty server). */
const TEST_CODE = ['\\.test\\.ts$', '^test/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'conformance-never-imports-src',
      comment: 'The conformance kit checks any implementation of the interface through HTTP alone: it may read openapi/, never the reference server in src/.',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^src/' },
    },
    {
      name: 'core-free-of-http',
      comment:
        'src/domain, src/kinds and src/store hold the catalog itself, src/events its change events, feed and webhooks: they raise domain errors (src/domain/errors.ts) and never see a request, so they import neither express nor the HTTP layers.',
      severity: 'error',
      from: { path: '^src/(domain|kinds|store|events)/', pathNot: TEST_CODE },
      to: { path: ['^src/(http|handlers|admin)/', '(^|/)node_modules/(express|@types/express|express-serve-static-core|@types/express-serve-static-core)/'] },
    },
    {
      name: 'no-test-code-in-the-product',
      comment: 'Test files and the test tree (the test kit test/kit.ts) are for tests only: nothing in src/, conformance/ or bin/ that is not test code imports them.',
      severity: 'error',
      from: { path: '^(src|conformance|bin)/', pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle of imports that run makes the evaluation order matter and hides which module depends on which. A cycle closed by a type-only import is left alone: it is erased at compile time (the CLI commands name the `Io` type of src/cli/main.ts, which imports them lazily).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|openapi/generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'] },
    reporterOptions: { text: { highlightFocused: false } },
  },
};
