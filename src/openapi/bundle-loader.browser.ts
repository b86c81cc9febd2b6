/**
 * The bundled document in the browser build of the catalog in process: imported, so that nothing is
 * read at run time. Node.js takes bundle-loader.ts.
 */
import bundle from '../../openapi/generated/openapi.bundle.json' with { type: 'json' };
import type { DocumentBundle } from './document.ts';

export const BUNDLE_PATH = 'openapi/generated/openapi.bundle.json';

/** A fresh copy of the bundle: the caller may change what it gets. */
export function readBundle(): DocumentBundle {
  return structuredClone(bundle) as unknown as DocumentBundle;
}
