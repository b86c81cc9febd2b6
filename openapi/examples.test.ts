/**
 * Every request example of the document is a request the server answers as documented: each
 * operation's request body examples and parameter examples, sent to a fresh server (the demo
 * catalog, reset after each request that may have changed it: anything but GET and HEAD; a reset
 * reloads every fixture, so resetting after reads too would double the time), in both profiles, get a status the operation documents and
 * never a 5xx. What an example names may not exist (a 404 is documented); what it sends must never
 * break the server.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/kit.ts';
import { SLOW_START, startApp } from '../test/kit.ts';
import type { Bundled, Json } from './document-helpers.ts';
import { allOperations, deref, loadBundled } from './document-helpers.ts';

let doc: Bundled;
beforeAll(async () => {
  doc = await loadBundled();
}, SLOW_START);

interface ExampleRequest {
  /** `POST /v1/users (body example "default")` */
  name: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  contentType?: string;
  body?: unknown;
  documented: string[];
}

/** The example of a parameter or a media type: `example`, else the first of `examples`, else its schema's. */
function examplesOf(node: Json): { label: string; value: unknown }[] {
  if (node.example !== undefined) return [{ label: 'example', value: node.example }];
  const named = Object.entries((node.examples as Record<string, Json> | undefined) ?? {}).map(([label, example]) => ({ label, value: deref(doc, example).value }));
  if (named.length) return named;
  const schema = deref(doc, node.schema);
  if (schema?.example !== undefined) return [{ label: 'schema example', value: schema.example }];
  if (Array.isArray(schema?.examples) && schema.examples.length) return [{ label: 'schema example', value: schema.examples[0] }];
  return [];
}

/** A path parameter without an example: a value of its type that names nothing. */
function filler(parameter: Json): string {
  const schema = deref(doc, parameter.schema) ?? {};
  if (schema.format === 'uuid' || parameter.name === 'id' || String(parameter.name).endsWith('Id')) return randomUUID();
  if (schema.type === 'integer' || schema.type === 'number') return '1';
  return 'nothing_here';
}

/** One request per body example of each operation (or one, with the parameter examples, when it has parameter examples only). */
function exampleRequests(): ExampleRequest[] {
  const out: ExampleRequest[] = [];
  for (const { method, path, operation, item } of allOperations(doc)) {
    const parameters = [...((item.parameters as Json[] | undefined) ?? []), ...((operation.parameters as Json[] | undefined) ?? [])].map((p) => deref(doc, p));
    const query: Record<string, string> = {};
    const headers: Record<string, string> = {};
    let url = path;
    let parameterExamples = 0;
    for (const parameter of parameters) {
      const [example] = examplesOf(parameter);
      if (example) parameterExamples++;
      const text = example === undefined ? undefined : typeof example.value === 'string' ? example.value : JSON.stringify(example.value);
      if (parameter.in === 'path') url = url.replace(`{${String(parameter.name)}}`, encodeURIComponent(text ?? filler(parameter)));
      else if (text !== undefined && parameter.in === 'query') query[String(parameter.name)] = text;
      else if (text !== undefined && parameter.in === 'header') headers[String(parameter.name)] = text;
    }
    const documented = Object.keys(operation.responses as Json);
    const content = (deref(doc, operation.requestBody)?.content as Record<string, Json> | undefined) ?? {};
    let bodies = 0;
    for (const [contentType, media] of Object.entries(content)) {
      for (const { label, value } of examplesOf(media)) {
        bodies++;
        out.push({ name: `${method.toUpperCase()} ${path} (${contentType} ${label})`, method, path: url, query, headers, contentType, body: value, documented });
      }
    }
    if (bodies === 0 && parameterExamples > 0) out.push({ name: `${method.toUpperCase()} ${path} (parameter examples)`, method, path: url, query, headers, documented });
  }
  return out;
}

describe.each(['contract', 'openmetadata'] as const)('profile %s: every request example of the document', (profile) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ profile, fixtures: 'default' });
  }, SLOW_START);

  it('gets a documented answer, never a 5xx, from a fresh server', async () => {
    const requests = exampleRequests();
    expect(requests.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let changed = true;
    for (const example of requests) {
      if (changed) await app.post('/__admin/reset', undefined, '').expect(200);
      changed = example.method !== 'get' && example.method !== 'head';
      let test = app.request(example.method as 'get', `/api${example.path}`).query(example.query);
      for (const [name, value] of Object.entries(example.headers)) test = test.set(name, value);
      if (example.contentType !== undefined) {
        test = test.set('Content-Type', example.contentType);
        test = test.send(typeof example.body === 'string' ? example.body : JSON.stringify(example.body));
      }
      const res = await test;
      const status = String(res.status);
      if (res.status >= 500 || !(example.documented.includes(status) || example.documented.includes('default'))) {
        problems.push(`${example.name}: ${status} (documented: ${example.documented.join(', ')}) ${res.text.slice(0, 300)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('ignores query parameters an operation does not declare, one with an empty name included (as the document says)', async () => {
    expect(String(doc.info && (doc.info as Json).description)).toContain('`?=false`');
    const plain = await app.get('/api/v1/tables?limit=3').expect(200);
    for (const query of ['=false', 'unknownParameter=1', '=', '__proto__=x']) {
      const res = await app.get(`/api/v1/tables?limit=3&${query}`).expect(200);
      expect(res.body).toEqual(plain.body);
    }
  });
});
