/**
 * Two catalogs in process never see each other's state: this file and catalog-msw.test.ts each
 * have their own, and so do two catalogs in one file; each starts from its own fixtures. What a
 * client does to an answer it read does not reach the catalog either.
 */
import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.ts';

const total = async (catalog: Awaited<ReturnType<typeof createCatalog>>, collection: string): Promise<number> => {
  const answer = await catalog.fetch(`${catalog.baseUrl}/v1/${collection}?limit=1`, { headers: { authorization: `Bearer ${await catalog.token()}` } });
  return ((await answer.json()) as { paging: { total: number } }).paging.total;
};

describe('catalogs in process', () => {
  it('each holds its own state, from its own fixtures', async () => {
    const demo = await createCatalog();
    const empty = await createCatalog({ fixtures: 'none' });
    const own = await createCatalog({
      fixtures: [{ kind: 'storageService', requests: [{ name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3' } } }] }],
      baseUrl: 'http://own.test/api',
    });
    try {
      expect(await total(demo, 'tables')).toBeGreaterThan(0);
      expect(await total(empty, 'tables')).toBe(0);
      expect(await total(own, 'services/storageServices')).toBe(1);
      const headers = { authorization: `Bearer ${await empty.token()}`, 'content-type': 'application/json' };
      const made = await empty.fetch(`${empty.baseUrl}/v1/services/storageServices`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'only-here', serviceType: 'S3', connection: { config: { type: 'S3' } } }),
      });
      expect(made.status).toBe(201);
      expect(await total(empty, 'services/storageServices')).toBe(1);
      expect(await total(own, 'services/storageServices')).toBe(1);
      // `href`s name the catalog's own base URL.
      expect(((await made.json()) as { href: string }).href.startsWith('http://catalog-kit.test/api/v1/services/storageServices/')).toBe(true);
    } finally {
      for (const catalog of [demo, empty, own]) catalog.close();
    }
  });

  it("a change to an answer's JSON leaves the catalog as it was; its text is the same answer", async () => {
    const catalog = await createCatalog();
    try {
      const headers = { authorization: `Bearer ${await catalog.token()}` };
      const page = (await (await catalog.fetch(`${catalog.baseUrl}/v1/tables?limit=1`, { headers })).json()) as { data: { id: string }[] };
      const url = `${catalog.baseUrl}/v1/tables/${page.data[0]!.id}?fields=tags,owners`;
      type Table = { name: string; columns: { name: string }[]; tags: unknown[]; databaseSchema: { name: string } };
      const read = async () => (await (await catalog.fetch(url, { headers })).json()) as Table;
      const first = await read();
      const before = structuredClone(first);
      first.name = 'changed';
      first.columns[0]!.name = 'changed';
      first.columns.push({ name: 'added' });
      first.tags.push({ tagFQN: 'PII.Sensitive' });
      first.databaseSchema.name = 'changed';
      expect(await read()).toEqual(before);
      expect(JSON.parse(await (await catalog.fetch(url, { headers })).text())).toEqual(before);
    } finally {
      catalog.close();
    }
  });

  it('a fixture that does not apply is refused at creation, naming it', async () => {
    await expect(createCatalog({ fixtures: [{ kind: 'table', requests: [{ name: 't', databaseSchema: 'nowhere.db.schema', columns: [] }] }] })).rejects.toThrow(
      /^fixture fixtures\[0\]: /,
    );
    await expect(createCatalog({ baseUrl: 'http://x.test/v1' })).rejects.toThrow(/baseUrl must end in \/api/);
  });

  it('exports and imports its state as the Admin API does', async () => {
    const source = await createCatalog({ fixtures: [{ kind: 'storageService', requests: [{ name: 'exported', serviceType: 'S3', connection: { config: { type: 'S3' } } }] }] });
    const target = await createCatalog({ fixtures: 'none' });
    try {
      expect(target.importState(source.exportState())).toBe(1);
      expect(await total(target, 'services/storageServices')).toBe(1);
      expect(() => target.importState({ format: 'nope' })).toThrow(/Not a catalog-kit state export/);
      expect(await total(target, 'services/storageServices')).toBe(1);
    } finally {
      source.close();
      target.close();
    }
  });
});
