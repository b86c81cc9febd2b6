/**
 * Where the files the server reads at run time are: the profile table, the bundled document, the
 * compiled validators and the demo catalog. Computed here alone, one folder below src/ (and below
 * dist/src/ in the package, where scripts/build.mjs copies the assets to the same relative places),
 * so the bundle of `catalog-kit serve` finds them by giving its code this module's location.
 */
import { fileURLToPath } from 'node:url';

const at = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export const PROFILE_TABLE_PATH = at('../../openapi/profiles.json');
export const DOCUMENT_BUNDLE_PATH = at('../../openapi/generated/openapi.bundle.json');
export const VALIDATORS_DIR = at('../../openapi/generated/validators/');
/** The demo catalog shipped in the package. */
export const DEFAULT_FIXTURES_DIR = at('../../fixtures/default');
