/**
 * Reads the bundled document on Node.js (openapi/generated/openapi.bundle.json, copied into dist/
 * by the build), when it is first needed. The browser build of the catalog in process takes
 * bundle-loader.browser.ts instead.
 */
import { readFileSync } from 'node:fs';
import { DOCUMENT_BUNDLE_PATH } from '../config/assets.ts';
import type { DocumentBundle } from './document.ts';

export const BUNDLE_PATH = DOCUMENT_BUNDLE_PATH;

/** A fresh parse of the bundle: the caller may change what it gets. */
export function readBundle(): DocumentBundle {
  return JSON.parse(readFileSync(BUNDLE_PATH, 'utf8')) as DocumentBundle;
}
