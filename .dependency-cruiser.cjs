/**
 * The layers of the repository, checked by `npm run lint:boundaries` (part of `npm test`).
 *
 * src/ is built in layers, each importing only from the layers below it:
 *
 *   config, auth,   leaves: the profile table, asset paths, the version; tokens and roles;
 *   platform        digests, encodings and random ids (with browser variants: scripts/browser-build.mjs)
 *   openapi         the document and the validators compiled from it
 *   core            the catalog itself: the store, entities, the generic lifecycle, listing,
 *                   projection, versions, change events, custom properties, state export/import
 *   http            the transport-neutral dispatcher: routes, validation, authentication, errors
 *   features        one folder per feature (search, lineage, csv, data quality, data contracts,
 *                   table data, events...), each with its domain code, routes and tests
 *   kinds           the table of kinds: each kind's row and hooks, which may use features' code
 *   app             express, the server, the command line, the Admin API, docs, fixtures, the data file
 *
 * and no folder of the product imports from a folder that imports from it (checked on the product
 * alone, test code left out: .dependency-cruiser.folders.cjs). conformance/ is a client of any
 * implementation: it never imports src/. Test code never ships. Type-only imports count: they
 * couple layers as much as any other import.
 */

/** Test code: test files and the test tree (the test kit, the self-test's faulty server, soak and integrity tooling). */
const TEST_CODE = ['\\.test\\.ts$', '^test/'];

const EXPRESS = '(^|/)node_modules/(express|@types/express|express-serve-static-core|@types/express-serve-static-core|body-parser|cors)/';

/** Each layer, with what it may not import (the layers above it, and express below the app). */
const LAYERS = [
  { name: 'config', path: '^src/config/', above: ['auth', 'platform', 'openapi', 'core', 'http', 'features', 'kinds', 'app'] },
  { name: 'auth', path: '^src/auth/', above: ['config', 'platform', 'openapi', 'core', 'http', 'features', 'kinds', 'app'] },
  { name: 'platform', path: '^src/platform/', above: ['config', 'auth', 'openapi', 'core', 'http', 'features', 'kinds', 'app'] },
  { name: 'openapi', path: '^src/openapi/', above: ['auth', 'core', 'http', 'features', 'kinds', 'app'] },
  { name: 'core', path: '^src/core/', above: ['http', 'features', 'kinds', 'app'] },
  { name: 'http', path: '^src/http/', above: ['features', 'kinds', 'app'] },
  { name: 'features', path: '^src/features/', above: ['kinds', 'app'] },
  { name: 'kinds', path: '^src/kinds/', above: ['http', 'app'] },
];

/** @type {import('dependency-cruiser').IConfiguration} */
/** How modules are found and read (.dependency-cruiser.folders.cjs reads them from here too). */
const OPTIONS = {
  doNotFollow: { path: 'node_modules' },
  exclude: { path: '^(dist|openapi/generated)/' },
  tsPreCompilationDeps: true,
  tsConfig: { fileName: 'tsconfig.json' },
  enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'] },
  reporterOptions: { text: { highlightFocused: false } },
};

module.exports = {
  forbidden: [
    {
      name: 'conformance-never-imports-src',
      comment: 'The conformance kit checks any implementation of the interface through HTTP alone: it may read openapi/, never the reference server in src/.',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^src/' },
    },
    ...LAYERS.map((layer) => ({
      name: `layer-${layer.name}`,
      comment: `src/${layer.name} imports only from the layers below it (.dependency-cruiser.cjs), and never express: the app is the only place express is used.`,
      severity: 'error',
      from: { path: layer.path, pathNot: TEST_CODE },
      to: { path: [...layer.above.map((above) => `^src/${above}/`), EXPRESS] },
    })),
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
        'A cycle of imports that run makes the evaluation order matter and hides which module depends on which. A cycle closed by a type-only import is left alone: it is erased at compile time (the CLI commands name the `Io` type of src/app/cli/main.ts, which imports them lazily).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: OPTIONS,
};
