/**
 * No folder of the product imports from a folder that imports from it: features from each other,
 * a layer from a layer above it (.dependency-cruiser.cjs names the layers). Checked on the product
 * alone: test files import from every folder they test, which is no cycle of the product's.
 */
const { options } = require('./.dependency-cruiser.cjs');

/** Test code, as .dependency-cruiser.cjs names it. */
const TEST_CODE = ['\\.test\\.ts$', '^test/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'No folder imports from a folder that imports from it: which depends on which must be plain.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: { ...options, exclude: { path: ['^(dist|openapi/generated)/', ...TEST_CODE] } },
};
