import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../../test/kit.ts';
import { markdown, renderReferencePage } from './reference-page.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const operationIds = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.values(doc.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([m]) => METHODS.has(m))
      .map(([, op]) => (op as { operationId: string }).operationId),
  );

/** Everything the page would make the browser fetch or navigate to: attribute URLs and CSS url()/@import. */
function references(html: string): string[] {
  const attributes = [...html.matchAll(/\s(?:src|href|action|formaction|poster|srcset|data|xlink:href|background)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? '',
  );
  const css = [...html.matchAll(/url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)/gi)].map((m) => m[1] ?? m[2] ?? '');
  return [...attributes, ...css];
}

describe('docs: a reference page rendered here, which works offline, and the documents themselves', () => {
  it("the server's root redirects to /docs, without a token", async () => {
    const { get } = await startApp();
    const root = await get('/', '');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('/docs');
  });

  it('/docs and /docs/ render every operation and tag of the document as HTML', async () => {
    const { get, document } = await startApp();
    const page = await get('/docs', '');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const ids = operationIds(document);
    expect(ids.length).toBeGreaterThan(400);
    const rendered = new Set([...page.text.matchAll(/<details class="op" id="op-([^"]+)"/g)].map((m) => m[1]));
    expect(ids.filter((id) => !rendered.has(id))).toEqual([]);
    for (const tag of ['Tables', 'Containers', 'Dashboards', 'Classifications']) expect(page.text).toContain(`<h2>${tag} <small>`);
    expect(page.text).toContain('List tables');
    expect(page.text).toContain('id="schema-table"');
    expect(page.text).toContain('<a href="/docs/admin">Admin API</a>');
    expect(page.text).toContain('<a href="/openapi.json">openapi.json</a>');
    const slash = await get('/docs/', '');
    expect(slash.status).toBe(200);
    expect(slash.text).toBe(page.text);
  });

  it('/docs/admin renders the Admin API document, its "Try it" aimed at the server root', async () => {
    const { get } = await startApp();
    const admin = await get('/__admin/openapi.json', '');
    const page = await get('/docs/admin', '');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const id of operationIds(admin.body)) expect(page.text).toContain(`id="op-${id}"`);
    expect(page.text).toContain('data-path="/__admin/reset"');
    expect(page.text).toContain('"apiBase":""');
    expect(page.text).toContain('<a href="/docs">API reference</a>');
    expect(page.text).not.toContain('id="authorize"');
    const main = await get('/docs', '');
    expect(main.text).toContain('"apiBase":"/api"');
    expect(main.text).toContain('id="authorize"');
  });

  it('the pages load nothing and link nowhere off this server; URLs of the document are only shown as text', async () => {
    const { get } = await startApp();
    const documentText = JSON.stringify((await get('/openapi.json', '')).body) + JSON.stringify((await get('/__admin/openapi.json', '')).body);
    for (const path of ['/docs', '/docs/admin']) {
      const html = (await get(path, '')).text;
      const refs = references(html);
      expect(refs.length).toBeGreaterThan(10);
      expect(refs.filter((r) => !/^(\/(?!\/)|#|\?|data:)/.test(r))).toEqual([]);
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|@font-face|\bimport\(['"`]|new (Web)?Socket|sendBeacon/i);
      // Example values such as a dashboard's sourceUrl are document content, escaped into text.
      const absolute = [...new Set(html.match(/https?:\/\/[^\s"'<>&)]+/g) ?? [])];
      expect(absolute.filter((url) => !documentText.includes(url))).toEqual([]);
    }
  });

  it('/docs/assets is gone with Swagger UI', async () => {
    const { get } = await startApp();
    expect((await get('/docs/assets/swagger-ui-bundle.js', '')).status).toBe(404);
  });

  it('/openapi.json and /openapi.yaml serve the same document, pointed at this server', async () => {
    const { get, document } = await startApp();
    const json = await get('/openapi.json', '').set('Host', '127.0.0.1:9999');
    expect(Object.keys(json.body.paths)).toEqual(Object.keys(document.paths));
    expect(json.body.servers).toEqual([{ url: 'http://127.0.0.1:9999/api', description: 'this catalog-kit server' }]);
    const yaml = await get('/openapi.yaml', '').set('Host', '127.0.0.1:9999');
    expect(yaml.headers['content-type']).toContain('application/yaml');
    expect(parse(yaml.text)).toEqual(json.body);
    const admin = await get('/__admin/openapi.json', '');
    expect(Object.keys(admin.body.paths)).toContain('/__admin/reset');
  });
});

describe('reference page rendering', () => {
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'T <b>',
      version: '1',
      description: 'Uses `Authorization: Bearer <JWT>`, see [the spec](https://example.org/x) or [tables](#tag-things).\n\nSecond **paragraph**.',
    },
    tags: [{ name: 'Things', description: 'All <things>.' }],
    security: [{ bearer: [] }],
    paths: {
      '/things/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        get: {
          operationId: 'getThing',
          tags: ['Things'],
          summary: 'Get a <thing>',
          parameters: [{ name: 'fields', in: 'query', schema: { type: ['string', 'null'], enum: ['a', 'b'] } }],
          responses: {
            '200': { description: 'The thing.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
        put: {
          operationId: 'putThing',
          tags: ['Things'],
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name', 'size'],
                  properties: { name: { type: 'string' }, size: { type: 'integer', minimum: 3 }, meta: { type: 'object', properties: { deep: { type: 'boolean' } } } },
                },
              },
            },
          },
          responses: { '204': { description: 'Done.' } },
        },
      },
    },
    components: {
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } } },
      responses: { NotFound: { description: '404 NOT_FOUND: nothing there. More text.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
      schemas: {
        // Recursive through its own name: rendered as a link, so rendering ends.
        Node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        Error: { type: 'object', required: ['code'], properties: { code: { type: 'integer' } }, unevaluatedProperties: false },
      },
    },
  };
  const html = renderReferencePage(doc, {
    title: 'T',
    apiBase: '/api',
    pages: [{ href: '/docs', label: 'Ref', current: true }],
    downloads: [{ href: '/openapi.json', label: 'openapi.json' }],
  });

  it('escapes the document text, and renders its Markdown subset; other sites stay text', () => {
    expect(html).toContain('<h1>T &lt;b&gt;</h1>');
    expect(html).toContain('<code>Authorization: Bearer &lt;JWT&gt;</code>');
    expect(html).toContain('the spec (https://example.org/x)');
    expect(html).not.toContain('href="https://example.org');
    expect(html).toContain('<a href="#tag-things">tables</a>');
    expect(html).toContain('<p>Second <strong>paragraph</strong>.</p>');
    expect(html).toContain('Get a &lt;thing&gt;');
    expect(html).not.toMatch(/<(b|thing|things|JWT)>/);
    expect(markdown('a\nb\n\n<script>x</script>')).toBe('<p>a b</p><p>&lt;script&gt;x&lt;/script&gt;</p>');
  });

  it('merges path-level parameters, shows types, links named schemas and shared responses', () => {
    const get = html.slice(html.indexOf('id="op-getThing"'), html.indexOf('id="op-putThing"'));
    expect(get).toContain('<code>id</code><span class="required" title="required">*</span></td><td>path</td><td class="type">string&lt;uuid&gt;</td>');
    expect(get).toContain('<td class="type">string | null</td>');
    expect(get).toContain('one of <code>&quot;a&quot;</code>, <code>&quot;b&quot;</code>');
    expect(get).toContain('<a class="schema-link" href="#schema-node">Node</a>');
    expect(get).toContain('404 NOT_FOUND <a href="#response-notfound">(NotFound)</a>');
    expect(get).toContain('bearer token');
    expect(html).toContain('id="schema-node"');
    expect(html).toContain('<a class="schema-link" href="#schema-node">Node</a>[]');
    expect(html).toContain('map&lt;string, string&gt;');
    expect(html).toContain('No other properties.');
  });

  it('"Try it" has an input per parameter and a body made of the required properties', () => {
    const put = html.slice(html.indexOf('id="op-putThing"'));
    expect(put).toContain('no token needed');
    expect(put).toContain(`<details class="try"><summary>Try it</summary><template><form class="try-form" data-method="PUT" data-path="/things/{id}">`);
    expect(put).toContain('<input name="id" data-in="path" required value="00000000-0000-0000-0000-000000000000">');
    expect(put).toMatch(/<textarea name="body" data-type="application\/json"[^>]*>\{\n {2}&quot;name&quot;: &quot;string&quot;,\n {2}&quot;size&quot;: 3\n\}<\/textarea>/);
    expect(put).toContain('<details class="nested"><summary>properties</summary>');
  });
});
