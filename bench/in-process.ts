/**
 * The catalog in process (catalog-kit/fetch; docs/in-tests.md), as a test runner meets it: the
 * built module imported in a fresh Node.js process, `createCatalog()` with the demo catalog (the
 * first call, then another), `reset()` after a write, and a GET by id through its `fetch` (median
 * and p99 of many, after a warm-up), median of `runs` processes; and the size of the browser build
 * (dist/browser/catalog.js), minified and gzipped. Targets: createCatalog ≤ 150 ms, reset ≤ 20 ms,
 * GET by id ≤ 50 µs median, the browser build ≤ 1 MB gzipped.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const CHILD = fileURLToPath(new URL('./in-process-child.mjs', import.meta.url));

interface ChildFigures {
  importMs: number;
  firstCreateMs: number;
  secondCreateMs: number;
  resetMedianMs: number;
  getByIdMedianUs: number;
  getByIdP99Us: number;
}

export type InProcessBench = { skipped: string } | (ChildFigures & { runs: number; browserBytes: number; browserGzipBytes: number });

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function child(getRuns: number): Promise<ChildFigures> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [CHILD, DIST, String(getRuns)], { timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as ChildFigures),
    ),
  );
}

export async function runInProcessBench(runs: number, getRuns = 20_000): Promise<InProcessBench> {
  const browser = `${DIST}/browser/catalog.js`;
  if (!existsSync(`${DIST}/src/app/in-process/catalog-loader.js`) || !existsSync(browser)) return { skipped: 'dist/ is missing: run npm run build' };
  const figures: ChildFigures[] = [];
  for (let i = 0; i < runs; i++) figures.push(await child(getRuns));
  const of = (key: keyof ChildFigures) => median(figures.map((f) => f[key]));
  const bytes = readFileSync(browser);
  return {
    runs,
    importMs: of('importMs'),
    firstCreateMs: of('firstCreateMs'),
    secondCreateMs: of('secondCreateMs'),
    resetMedianMs: of('resetMedianMs'),
    getByIdMedianUs: of('getByIdMedianUs'),
    getByIdP99Us: of('getByIdP99Us'),
    browserBytes: bytes.length,
    browserGzipBytes: gzipSync(bytes, { level: 9 }).length,
  };
}
