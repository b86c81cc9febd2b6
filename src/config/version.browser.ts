/**
 * The package version in the browser build of the catalog in process: written into the build by
 * scripts/build.mjs (`define`), as nothing is read at run time. Node.js takes version.ts.
 */
declare const CATALOG_KIT_VERSION: string;

/** The version the build was made of. */
export function findPackageVersion(): string {
  return CATALOG_KIT_VERSION;
}

export const VERSION = findPackageVersion();
