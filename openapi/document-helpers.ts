/** Helpers for the document's own tests: load it bundled, walk operations, resolve schemas. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type Json = Record<string, unknown>;
export type Bundled = Json & {
  openapi: string;
  security: unknown;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; parameters: Record<string, Json> };
};

const DOC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export async function loadBundled(): Promise<Bundled> {
  return (await SwaggerParser.bundle(DOC)) as unknown as Bundled;
}

export function* allOperations(doc: Bundled): Generator<{ method: string; path: string; operation: Json; item: Json }> {
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation) yield { method, path: p, operation, item };
    }
  }
}

/** Follows a local `$ref` (`#/components/...`) to its target. */
export function deref<T = Json>(doc: Bundled, node: unknown): T {
  let current = node as Json;
  while (current && typeof current.$ref === 'string') {
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((acc, key) => acc[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, doc as Json);
  }
  return current as T;
}

/** Properties a schema requires, through `$ref` and `allOf`. */
export function requiredProperties(doc: Bundled, schema: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (node: unknown): void => {
    const s = deref(doc, node);
    for (const r of (s.required as string[] | undefined) ?? []) out.add(r);
    for (const part of (s.allOf as unknown[] | undefined) ?? []) visit(part);
  };
  visit(schema);
  return out;
}

/** Properties a schema declares, through `$ref` and `allOf`, with their (dereferenced) schemas. */
export function properties(doc: Bundled, schema: unknown): Map<string, Json> {
  const out = new Map<string, Json>();
  const visit = (node: unknown): void => {
    const s = deref(doc, node);
    for (const [k, v] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) out.set(k, deref(doc, v));
    for (const part of (s.allOf as unknown[] | undefined) ?? []) visit(part);
  };
  visit(schema);
  return out;
}

let ajv: InstanceType<typeof Ajv2020> | undefined;
let ajvDoc: Bundled | undefined;

/** Compiles the schema at a JSON pointer of the bundled document, resolving its references. */
export function compileInDocument(doc: Bundled, pointer: string): ValidateFunction {
  if (!ajv || ajvDoc !== doc) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'doc');
    ajvDoc = doc;
  }
  return ajv.compile({ $ref: `doc#${pointer}` });
}
