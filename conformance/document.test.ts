/**
 * The document responses are checked against (conformance/document.ts): the kit's own, read from
 * the bundle, and a target's own given with --openapi (OpenAPI 3.0 or 3.1, JSON or YAML); the
 * suite compiles the validators of either itself, on first use.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentError, loadDocument } from './document.ts';

describe("the kit's document", () => {
  it('finds the operation of a request path, a literal segment winning over a parameter', async () => {
    const doc = await loadDocument('contract');
    // given: a method and a path below the base URL; want: the operation's template
    const cases: [string, string, string | undefined][] = [
      ['GET', '/v1/containers/7b2c4e1a-0000-4000-8000-00000000c0de', 'GET /v1/containers/{id}'],
      ['GET', '/v1/containers/name/svc.%22a.b%22', 'GET /v1/containers/name/{fqn}'],
      ['PUT', '/v1/containers/restore', 'PUT /v1/containers/restore'],
      ['PUT', '/v1/containers/bulk', 'PUT /v1/containers/bulk'],
      ['GET', '/v1/services/storageServices/7b2c4e1a-0000-4000-8000-00000000c0de/versions/0.2', 'GET /v1/services/storageServices/{id}/versions/{version}'],
      ['DELETE', '/v1/dataContracts/7b2c4e1a-0000-4000-8000-00000000c0de/results/before/1700000000000', 'DELETE /v1/dataContracts/{id}/results/before/{timestamp}'],
      ['GET', '/v1/no-such-collection', undefined],
      ['PATCH', '/v1/containers', undefined],
    ];
    for (const [method, given, want] of cases) expect(doc.match(method, given)?.key, `${method} ${given}`).toBe(want);
  });

  it('checks the status, the content type and the schema of a response, naming where the schema is', async () => {
    const doc = await loadDocument('contract');
    const get = doc.match('GET', '/v1/containers/7b2c4e1a-0000-4000-8000-00000000c0de')!;
    const error = { code: 404, errorType: 'NOT_FOUND', message: 'container instance for x not found' };
    expect(doc.check(get, 404, 'application/json', JSON.stringify(error), error)).toMatchObject({ statusDocumented: true, documentedAs: '404', bodyProblems: [] });
    expect(doc.check(get, 418, 'application/json', '{}', {}).statusDocumented).toBe(false);
    const wrong = doc.check(get, 404, 'application/json', '{"code":"404"}', { code: '404' });
    expect(wrong.bodyProblems.join()).toMatch(/must/);
    expect(wrong.schemaPath).toMatch(/^#\/paths\/~1v1~1containers~1\{id\}\/get\/responses\/404\/content\/application~1json\/schema/);
    expect(doc.check(get, 404, 'text/html', '<h1>no</h1>', undefined).bodyProblems.join()).toMatch(/content type text\/html/);
    const hardDelete = doc.match('DELETE', '/v1/containers/7b2c4e1a-0000-4000-8000-00000000c0de')!;
    expect(doc.check(hardDelete, 204, '', '', undefined).bodyProblems).toEqual([]);
    expect(doc.check(hardDelete, 204, 'application/json', '{}', {}).bodyProblems.join()).toMatch(/a body .* where the document gives none/);
  });

  it('compiles every response schema of the document with its own Ajv (none left unchecked), independent of the server build', async () => {
    const doc = await loadDocument('contract');
    expect(doc.location).toMatch(/openapi\/generated\/openapi\.bundle\.json$/);
    let checked = 0;
    for (const op of doc.operations) {
      for (const status of op.statuses.filter((s) => /^\d{3}$/.test(s))) {
        // A body no schema of the document accepts: every schema with content must name a problem.
        const verdict = doc.check(op, Number(status), 'application/json', '[[["never"]]]', [[['never']]]);
        if (verdict.bodyProblems.length > 0) checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(600);
  });

  it('finds the line where an operation is written in the bundle', async () => {
    const doc = await loadDocument('contract');
    const line = await doc.lineOf('GET /v1/containers/{id}');
    const lines = readFileSync(doc.location, 'utf8').split('\n');
    expect(line).toBeGreaterThan(1);
    expect(lines[line! - 1]).toMatch(/^\s*"get": \{/);
    expect(
      lines
        .slice(0, line! - 1)
        .filter((l) => /^ {3}"\/v1\//.test(l))
        .at(-1),
    ).toMatch(/"\/v1\/containers\/\{id\}": \{/);
    expect(await doc.lineOf('GET /v1/nowhere')).toBeUndefined();
  });

  it('lists every operation of the document once', async () => {
    const doc = await loadDocument('openmetadata');
    const keys = doc.operations.map((op) => op.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('PUT /v1/tables/{id}/tableProfilerConfig');
  });
});

const TARGET_30 = `
openapi: 3.0.3
info: { title: a target, version: '1' }
servers: [{ url: /api }]
paths:
  /v1/things/{id}:
    get:
      operationId: getThing
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
        '404': { $ref: '#/components/responses/NotFound' }
        default:
          description: anything else
  /v1/things/{id}/export:
    get:
      responses:
        '200':
          description: CSV
          content:
            text/plain:
              schema: { type: string, minLength: 1 }
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id: { type: string, format: uuid }
        note: { type: string, nullable: true }
  responses:
    NotFound:
      description: not found
      content:
        application/json:
          schema: { type: object, required: [code], properties: { code: { type: integer } } }
`;

describe("a target's document (--openapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ck-openapi-'));
  const file = (name: string, text: string) => {
    const full = path.join(dir, name);
    writeFileSync(full, text);
    return full;
  };

  it('reads OpenAPI 3.0 YAML: nullable, component references, response references, default, text bodies', async () => {
    const doc = await loadDocument('contract', file('target.yaml', TARGET_30));
    expect(doc.source).toContain('target.yaml');
    const op = doc.match('GET', '/v1/things/7b2c4e1a-0000-4000-8000-00000000c0de')!;
    expect(op.operationId).toBe('getThing');
    expect(await doc.lineOf('GET /v1/things/{id}')).toBe(TARGET_30.split('\n').findIndex((l) => l.trim() === 'get:') + 1);
    // given: a response; want: its problems
    const cases: { status: number; body: unknown; want: RegExp | null }[] = [
      { status: 200, body: { id: '7b2c4e1a-0000-4000-8000-00000000c0de', note: null }, want: null },
      { status: 200, body: { id: 'not-a-uuid' }, want: /\/id must match format "uuid"/ },
      { status: 200, body: { note: 'x' }, want: /must have required property 'id'/ },
      { status: 404, body: { code: 'x' }, want: /\/code must be integer/ },
      { status: 500, body: { anything: true }, want: null },
    ];
    for (const { status, body, want } of cases) {
      const verdict = doc.check(op, status, 'application/json', JSON.stringify(body), body);
      expect(verdict.statusDocumented, `${status}`).toBe(true);
      if (want) expect(verdict.bodyProblems.join(), `${status} ${JSON.stringify(body)}`).toMatch(want);
      else expect(verdict.bodyProblems, `${status} ${JSON.stringify(body)}`).toEqual([]);
    }
    expect(doc.check(op, 404, 'application/json', '{"code":"x"}', { code: 'x' }).schemaPath).toBe(
      '#/paths/~1v1~1things~1{id}/get/responses/404/content/application~1json/schema (#/components/responses/NotFound)',
    );
    const csv = doc.match('GET', '/api/v1/things/7b2c4e1a-0000-4000-8000-00000000c0de/export')!;
    expect(doc.check(csv, 200, 'text/plain', 'a,b', undefined).bodyProblems).toEqual([]);
    expect(doc.check(csv, 200, 'text/plain', '', undefined).bodyProblems.join()).toMatch(/no body/);
  });

  it('refuses what is not an OpenAPI 3 document, or not there, as a usage problem', async () => {
    await expect(loadDocument('contract', file('swagger.json', '{"swagger":"2.0","paths":{}}'))).rejects.toThrow(DocumentError);
    await expect(loadDocument('contract', file('bad.yaml', 'openapi: [unclosed'))).rejects.toThrow(/neither JSON nor YAML/);
    await expect(loadDocument('contract', path.join(dir, 'missing.json'))).rejects.toThrow(/cannot read it/);
  });
});
