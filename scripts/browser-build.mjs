/**
 * The browser build of the catalog in process (`catalog-kit/fetch` under the `browser` condition):
 * src/app/in-process/catalog.ts and everything it imports, dependencies included, as one ES module
 * for the browser, dist/browser/catalog.js. Where a module has a `<name>.browser.ts` beside it (a
 * digest, the loaders of the validators and of the document, the version), the build takes that
 * one instead: the same functions, with no Node.js built-in and nothing read at run time; the CSV
 * packages come as their browser builds. esbuild refuses a Node.js built-in for the browser, so none
 * can reach the build.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Each `<name>.ts` that has a `<name>.browser.ts` beside it resolves to that one. */
const browserVariants = {
  name: 'browser-variants',
  setup(build) {
    build.onResolve({ filter: /^\.{1,2}\/.*\.ts$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path);
      const variant = resolved.replace(/\.ts$/, '.browser.ts');
      return existsSync(variant) ? { path: variant } : undefined;
    });
  },
};

/** Builds the browser module into `outfile`; returns esbuild's metafile. */
export async function buildBrowser(esbuild, { root, outfile, minify = true }) {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/app/in-process/catalog.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify,
    sourcemap: false,
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
    define: { CATALOG_KIT_VERSION: JSON.stringify(version) },
    // The CSV packages' own browser builds: the same API, with what they need of Buffer built in.
    alias: { 'csv-parse/sync': 'csv-parse/browser/esm/sync', 'csv-stringify/sync': 'csv-stringify/browser/esm/sync' },
    plugins: [browserVariants],
  });
  return result.metafile;
}
