/**
 * The OpenAPI document is the source of truth: it must be a valid OpenAPI 3.1 document, every
 * example must validate against its own schema, every operation must be fully described, the
 * committed generated types must be current. (Redocly's lint of it is `npm run lint:openapi`, in
 * `npm run check`.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAMP_PATH, stampText } from '../scripts/write-bundle.ts';
import { allOperations, compileInDocument, deref, loadBundled } from './document-helpers.ts';
import type { Bundled } from './document-helpers.ts';

const root = path.dirname(fileURLToPath(import.meta.url));

let doc: Bundled;
beforeAll(async () => {
  doc = await loadBundled();
});

describe('the document is valid OpenAPI 3.1', () => {
  it('passes @apidevtools/swagger-parser validation, in its source form and in its bundled form', async () => {
    // The source form, as a tool pointed at the repository reads it: the path items whose schemas
    // reach a recursive schema are written in openapi.yaml (the comment above its `paths` says why).
    await expect(SwaggerParser.validate(path.join(root, 'openapi.yaml'))).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
  });
});

describe('every operation is fully described', () => {
  it('has an operationId (unique), a tag, a summary and a description that names its source', () => {
    const ids = new Set<string>();
    for (const { method, path: p, operation } of allOperations(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      expect(operation.operationId, where).toBeTypeOf('string');
      expect(ids.has(operation.operationId as string), `${where} duplicate operationId`).toBe(false);
      ids.add(operation.operationId as string);
      expect((operation.tags as string[] | undefined)?.length, `${where} tags`).toBeGreaterThan(0);
      expect(operation.summary, `${where} summary`).toBeTypeOf('string');
      expect(String(operation.description), `${where} description cites the contract or OpenMetadata`).toMatch(/contract|OpenMetadata/i);
    }
    expect(ids.size).toBeGreaterThan(300);
  });

  it('documents 400, 401 and 403 on every operation, and every /api operation needs the bearer token', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const { method, path: p, operation } of allOperations(doc)) {
      const statuses = Object.keys(operation.responses as object);
      for (const status of ['400', '401', '403']) expect(statuses, `${method.toUpperCase()} ${p}`).toContain(status);
      expect(operation.security, `${method.toUpperCase()} ${p} must not opt out of auth`).toBeUndefined();
    }
  });
});

describe('OpenAPI links let link-driven tools such as Schemathesis chain calls', () => {
  it('every create links to get by id and by name, and each link names a real operation and its parameters', () => {
    const byId = new Map<string, { operation: Record<string, unknown>; item: Record<string, unknown> }>();
    for (const { operation, item } of allOperations(doc)) byId.set(operation.operationId as string, { operation, item });
    let creates = 0;
    for (const { path: p, method, operation } of allOperations(doc)) {
      const responses = operation.responses as Record<string, { links?: Record<string, { operationId: string; parameters?: Record<string, string> }> }>;
      const links = Object.values(responses).flatMap((r) => Object.values(r.links ?? {}));
      if (method === 'post' && /^create[A-Z]/.test(String(operation.operationId))) {
        creates++;
        const targets = links.map((l) => l.operationId);
        expect(
          targets.some((t) => /ById$/.test(t)),
          `${p} links to get by id`,
        ).toBe(true);
        expect(
          targets.some((t) => /ByFqn$/.test(t)),
          `${p} links to get by name`,
        ).toBe(true);
      }
      for (const link of links) {
        const target = byId.get(link.operationId);
        expect(target, `${p} links to unknown operation ${link.operationId}`).toBeDefined();
        const names = new Set(
          [
            ...((target!.item.parameters as { $ref?: string; name?: string }[] | undefined) ?? []),
            ...((target!.operation.parameters as { $ref?: string; name?: string }[] | undefined) ?? []),
          ].map((param) => deref<{ name: string }>(doc, param).name),
        );
        for (const name of Object.keys(link.parameters ?? {})) expect(names.has(name), `${link.operationId} has parameter ${name}`).toBe(true);
      }
    }
    expect(creates).toBeGreaterThan(20);
  });
});

describe('every example validates against its own schema', () => {
  it('checks request and response examples, and their ids are distinct', () => {
    let count = 0;
    const ids = new Map<string, string>();
    const visit = (node: unknown, pointer: string): void => {
      if (!node || typeof node !== 'object') return;
      const media = node as { schema?: unknown; example?: unknown; examples?: Record<string, { value: unknown }> };
      if (media.schema && (media.example !== undefined || media.examples)) {
        const validate = compileInDocument(doc, `${pointer}/schema`);
        const values = media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
        for (const value of values) {
          count++;
          expect(validate(value), `${pointer}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
          const id = (value as { id?: unknown } | null)?.id;
          if (typeof id === 'string') {
            expect(ids.get(id) ?? pointer, `example id ${id} reused`).toBe(pointer);
            ids.set(id, pointer);
          }
        }
      }
      for (const [key, child] of Object.entries(node)) {
        if (key !== 'example' && key !== 'examples') visit(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
    };
    visit(doc.paths, '/paths');
    visit(doc.components.responses, '/components/responses');
    expect(count).toBeGreaterThan(50);
  });
});

describe('generated types', () => {
  // `npm run check:types` (run by CI) regenerates both files and compares them whole.
  it('were written from the current YAML by this openapi-typescript, and not changed since (run `npm run gen:types` when this fails)', () => {
    expect(stampText(), 'openapi/generated/ is stale: run `npm run gen:types`').toBe(readFileSync(STAMP_PATH, 'utf8'));
  });
});
