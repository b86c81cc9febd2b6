/**
 * README.md as a newcomer meets it: short, its first screen the five things they come for
 * (install, start with the port, /docs and the token, a conformance run against a URL, npm test),
 * then a table of contents into docs/ whose every link leads to a file; and its commands in the
 * fast form, which in a clone is the built command, never `npx catalog-kit` (npx copies a clone
 * into npm's cache before running it: docs/troubleshooting.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const lines = readme.split('\n');
/** Everything before the table of contents. */
const firstScreen = readme.slice(0, readme.indexOf('\n## Contents'));
const contents = readme.slice(readme.indexOf('\n## Contents'), readme.indexOf('\n## ', readme.indexOf('\n## Contents') + 1));

/** Relative link targets of a Markdown text, without their #fragment. */
const relativeLinks = (markdown: string): string[] =>
  [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''));

describe('README.md', () => {
  it('is at most 300 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  it.each([
    { what: 'install from a clone', want: /^npm install$/m },
    { what: 'start, with the port and how to change it', want: /^npm start .*8585.*--port/m },
    { what: 'start where the package is installed', want: /^npx catalog-kit serve --port/m },
    { what: 'a token from the built command', want: /^TOKEN=\$\(node dist\/bin\/catalog-kit\.js token\)$/m },
    { what: 'the docs page and the token', want: /127\.0\.0\.1:8585\/docs[^]*Authorize[^]*token/ },
    { what: 'a conformance run against a URL, with both tokens so every rule is exercised', want: /conform --target http:\/\/\S+\/api --token [^\n]*\\\n\s+--restricted-token/ },
    { what: 'the tests', want: /^npm test$/m },
  ])('its first screen has $what', ({ want }) => {
    expect(firstScreen).toMatch(want);
  });

  it('has a table of contents into docs/ for UI work, fixtures, search/lineage/events, conformance, the CLI, troubleshooting, contributing and performance', () => {
    for (const doc of ['ui-work', 'fixtures', 'search-lineage-events', 'conformance', 'cli', 'troubleshooting', 'contributing', 'performance']) {
      expect(contents).toContain(`](docs/${doc}.md)`);
    }
  });

  it('links only to files that exist, and so does every document under docs/', () => {
    const docs = ['README.md', ...relativeLinks(readme).filter((target) => target.startsWith('docs/'))];
    const broken = [...new Set(docs)].flatMap((doc) =>
      relativeLinks(readFileSync(path.join(ROOT, doc), 'utf8'))
        .map((target) => path.join(path.dirname(doc), target))
        .filter((target) => !existsSync(path.join(ROOT, target)))
        .map((target) => `${doc} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('runs the command in its fast form: npx catalog-kit only in commands for a project that installed the package', () => {
    let inCode = false;
    const npx = lines.flatMap((line, i) => {
      if (line.startsWith('```')) inCode = !inCode;
      return inCode && line.includes('npx catalog-kit') ? [i] : [];
    });
    expect(npx.length).toBeGreaterThan(0);
    /** The prose before the code block that holds line i. */
    const introOf = (i: number): string => {
      let fence = i;
      while (fence > 0 && !lines[fence]!.startsWith('```')) fence -= 1;
      let start = fence - 1;
      while (start > 0 && lines[start - 1] !== '' && !lines[start - 1]!.startsWith('```')) start -= 1;
      return lines.slice(start, fence).join(' ');
    };
    expect(npx.filter((i) => !/installed the package/.test(introOf(i))).map((i) => lines[i])).toEqual([]);
  });
});
