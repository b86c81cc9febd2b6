/**
 * The repository carries its own documentation: comments, OpenAPI descriptions and the conformance
 * rules cite docs/behaviour.md (shipped in the package), a section of the interface specification
 * by name, or a file of the repository, never a document the reader does not have (a numbered
 * section of an outside reference, an issue number, a design note outside the repository). And
 * every `docs/behaviour.md "<heading>"` citation names a heading that exists.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BEHAVIOUR = 'docs/behaviour.md';
const SELF = path
  .relative(ROOT, fileURLToPath(import.meta.url))
  .split(path.sep)
  .join('/');

/** Where the project's own text lives; generated and installed files are not read. */
const SCANNED = ['src', 'conformance', 'openapi', 'bench', 'scripts', 'bin', 'test', 'docs', 'README.md'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', 'results']);
const TEXT_FILE = /\.(ts|mts|mjs|js|json|ya?ml|md)$/;

/** What a citation of a document the reader does not have looks like. */
const FORBIDDEN: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an issue number', pattern: /\bissues? #?[0-9]/i },
  { name: 'a numbered section of an outside reference', pattern: /(?<!RFC \d{3,5} )§/ },
  { name: 'the design note outside the repository', pattern: /DESIGN\.md/ },
  { name: 'a file outside the repository', pattern: /\.\.\/shared/ },
];

/** A regular-expression literal (it has `|` or `\\` in it) checks for these patterns; it cites nothing. */
const REGEX_LITERAL = /\/[^/\n]*[|\\][^/\n]*\/[dgimsuy]*/g;

function offences(text: string): string[] {
  const prose = text.replace(REGEX_LITERAL, '');
  return FORBIDDEN.filter((f) => f.pattern.test(prose)).map((f) => f.name);
}

function filesUnder(entry: string): string[] {
  const full = path.join(ROOT, entry);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return []; // a folder that does not exist (yet) holds nothing to check
  }
  if (stat.isFile()) return TEXT_FILE.test(entry) ? [entry] : [];
  return readdirSync(full, { withFileTypes: true }).flatMap((child) => {
    if (child.isDirectory() && SKIPPED_DIRS.has(child.name)) return [];
    return filesUnder(`${entry}/${child.name}`);
  });
}

const files = SCANNED.flatMap(filesUnder).filter((file) => file !== SELF);
const lines = files.flatMap((file) =>
  readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .map((text, i) => ({ file, line: i + 1, text })),
);

/** `docs/behaviour.md "A"`, `docs/behaviour.md "A", "B"` (quotes may be escaped in JSON); `"<heading>"` is a placeholder. */
const CITATION = /docs\/behaviour\.md\s+((?:\\?"[^"\\\n]+\\?"(?:\s*,\s*)?)+)/g;

function citedHeadings(text: string): string[] {
  return [...text.matchAll(CITATION)].flatMap((m) => [...(m[1] ?? '').matchAll(/\\?"([^"\\\n]+)\\?"/g)].map((q) => q[1] ?? '')).filter((h) => !h.startsWith('<'));
}

function headings(markdown: string): string[] {
  return markdown.split('\n').flatMap((line) => /^#{1,6}\s+(.+?)\s*$/.exec(line)?.slice(1) ?? []);
}

/** `folder: N` lines, then every offender as `file:line: text`. */
function offenderReport(offenders: readonly { file: string; line: number; text: string; why: string }[]): string {
  const byFolder = new Map<string, number>();
  for (const o of offenders) {
    const folder = o.file.includes('/') ? o.file.split('/').slice(0, 2).join('/') : o.file;
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  const summary = [...byFolder].sort(([a], [b]) => a.localeCompare(b)).map(([folder, n]) => `  ${folder}: ${n}`);
  const detail = offenders.map((o) => `  ${o.file}:${o.line}: ${o.why}: ${o.text.trim().slice(0, 160)}`);
  return [`${offenders.length} offenders`, ...summary, '', ...detail].join('\n');
}

describe('citations name only documents the reader has', () => {
  it.each([
    { given: 'Not shown in the contract; follows observed OpenMetadata behaviour (§5.1, §5.2)', want: ['a numbered section of an outside reference'] },
    { given: 'The typed client for client authors (issue 6 "Typed client")', want: ['an issue number'] },
    { given: 'behaviour profiles (DESIGN.md "Behaviour profiles")', want: ['the design note outside the repository'] },
    { given: 'see ../shared/reference/openmetadata-observed.md', want: ['a file outside the repository'] },
    { given: 'follows OpenMetadata (docs/behaviour.md "Listing"; `ContainerResource.java`)', want: [] },
    { given: 'contract "Delete and restore" rule 4: hard delete returns 204', want: [] },
    { given: 'Headers of one connection, never forwarded (RFC 9110 §7.6.1)', want: [] },
    { given: 'expect(text).not.toMatch(/§|DESIGN\\.md|issue \\d/i); // a check, not a citation', want: [] },
  ])('the patterns: $given', ({ given, want }) => {
    expect(offences(given)).toEqual(want);
  });

  it('reads the folders the project writes (src, conformance, openapi...)', () => {
    for (const folder of ['src', 'conformance', 'openapi', 'docs'])
      expect(
        files.some((f) => f.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
    expect(files.some((f) => f.startsWith('openapi/generated/'))).toBe(false);
  });

  it('no comment, description or rule cites an issue number, a numbered outside section, DESIGN.md or ../shared', () => {
    const offenders = lines.flatMap((l) => offences(l.text).map((why) => ({ ...l, why })));
    expect(offenders.length, offenderReport(offenders)).toBe(0);
  });
});

describe(`every ${BEHAVIOUR} "<heading>" citation names a heading of ${BEHAVIOUR}`, () => {
  const known = headings(readFileSync(path.join(ROOT, BEHAVIOUR), 'utf8'));

  it.each([
    { given: 'OpenMetadata (docs/behaviour.md "Delete and restore").', want: ['Delete and restore'] },
    { given: '(docs/behaviour.md "Listing", "Databases, schemas and tables"): cursor', want: ['Listing', 'Databases, schemas and tables'] },
    { given: '"source": "docs/behaviour.md \\"Errors\\" (CatalogGenericExceptionMapper.java)"', want: ['Errors'] },
    { given: 'the whole page: docs/behaviour.md, shipped in the package', want: [] },
    { given: 'cite `docs/behaviour.md "<heading>"`', want: [] },
  ])('reads the cited headings of $given', ({ given, want }) => {
    expect(citedHeadings(given)).toEqual(want);
  });

  it('has the headings other files cite, each once', () => {
    for (const heading of [
      'Profiles',
      'Listing',
      'Create',
      'Upsert',
      'Patch',
      'Delete and restore',
      'Versions',
      'Errors',
      'Fully qualified names',
      'Followers and votes',
      'Data contracts',
      'Table data',
      'Classifications and tags',
      'Services',
      'Authentication',
    ]) {
      expect(known, heading).toContain(heading);
    }
    expect(
      known.filter((h, i) => known.indexOf(h) !== i),
      'duplicate headings',
    ).toEqual([]);
  });

  it('every citation in src, conformance, openapi, bench, scripts and the docs resolves', () => {
    const unknown = lines.flatMap((l) =>
      citedHeadings(l.text)
        .filter((h) => !known.includes(h))
        .map((h) => ({ ...l, why: `no heading "${h}"` })),
    );
    expect(unknown.length, offenderReport(unknown)).toBe(0);
  });
});
