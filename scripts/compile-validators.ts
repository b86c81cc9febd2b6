/**
 * `npm run build:validators`: compiles the OpenAPI documents into validators once, at build time,
 * so the server compiles nothing at run time (src/openapi/compiled.ts describes what is written).
 *
 * - Three Ajv instances (JSON Schema 2020-12, formats), written as Ajv standalone code:
 *   `params.cjs` coerces path, query and header values to their declared types; `requests.cjs`
 *   validates request bodies without coercion and fills in the documented `default`s (as
 *   OpenMetadata does when it reads a request); `responses.cjs` validates responses and every
 *   component schema without changing them.
 * - Profiles: where the active profile's overlay of the document (src/openapi/document.ts) changes
 *   a component schema, that schema and every schema reaching it are compiled again for the profile,
 *   and the operations using them get a profile entry in the table.
 * - Documentation-only keys are dropped first: they would only make the code larger.
 *
 * - Formats are ajv-formats' full ones, but for a faster check of the common `uri` (formats.cjs).
 *
 * Output: openapi/generated/validators/{params,requests,responses,formats}.cjs, operations.json,
 * admin-document.json (openapi/admin.yaml as JSON) and index.cjs.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020Module, { _ } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import type { ProfileName } from '../src/config/profiles.ts';
import { PROFILES, profileByName } from '../src/config/profiles.ts';
import type { OperationEntry, OperationTable } from '../src/openapi/compiled.ts';
import { BUNDLE_PATH, readDocument } from '../src/openapi/document.ts';
import type { OpenApiDocument } from '../src/openapi/document.ts';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const standaloneCode = standaloneModule as unknown as typeof standaloneModule.default;

type Json = Record<string, unknown>;
type Ajv = InstanceType<typeof Ajv2020>;

const OUT = fileURLToPath(new URL('../openapi/generated/validators/', import.meta.url));
const ADMIN_PATH = fileURLToPath(new URL('../openapi/admin.yaml', import.meta.url));
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;
const DOC_KEYS = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', 'links', '$comment']);

/** The schema without what only people read (keys under `properties` are field names: kept). */
export function stripDocumentation(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => stripDocumentation(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inProperties && DOC_KEYS.has(key)) continue;
    out[key] = stripDocumentation(value, !inProperties && (key === 'properties' || key === 'patternProperties' || key === '$defs'));
  }
  return out;
}

function mapRefs(node: unknown, map: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => mapRefs(n, map));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === '$ref' && typeof value === 'string' ? map(value) : mapRefs(value, map);
  return out;
}

function refsOf(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.add(value);
      else refsOf(value, out);
    }
  }
  return out;
}

const SCHEMA_REF = '#/components/schemas/';
/** Schema ids must be absolute URIs for references between them to resolve. */
const uri = (docId: string): string => `ck://${docId}`;
const componentName = (ref: string): string | undefined => (ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : undefined);

/**
 * An absolute `http(s)` URI of unreserved and path characters only: no user info, IP literal,
 * percent-escape, query or fragment. Every string it matches matches ajv-formats' `uri` (RFC 3986:
 * a scheme, `//`, a reg-name host, a port, path segments), and the `href`s the server writes for a
 * host name or an IPv4 address (several per entity answered, ten entities per list page) match it,
 * so the full check (one large regular expression, about twice the time: docs/performance.md "What
 * changed in phase 7") runs only for the others. openapi/formats.test.ts checks that the two agree.
 */
const HTTP_URI = /^https?:\/\/[a-z0-9\-._~]+(?::\d+)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@]*)*$/i;

/** formats.cjs: the formats the validators call, as ajv-formats defines them but for `uri`. */
const FORMATS_MODULE = [
  '// Generated by scripts/compile-validators.ts (npm run build:validators). Do not edit.',
  "'use strict';",
  "const { fullFormats } = require('ajv-formats/dist/formats');",
  `const HTTP_URI = ${HTTP_URI.toString()};`,
  'const fullUri = fullFormats.uri;',
  'module.exports = { ...fullFormats, uri: (value) => HTTP_URI.test(value) || fullUri(value) };',
  '',
].join('\n');

/** One Ajv instance and the functions it will export, by schema id. */
class Unit {
  readonly ajv: Ajv;
  private readonly names = new Map<string, string>();
  /** Inline schemas: their key (document, operation, place) → schema id. */
  private readonly inlined = new Map<string, string>();
  constructor(
    readonly prefix: string,
    options: Json,
  ) {
    this.ajv = new Ajv2020({
      strict: false,
      strictNumbers: true,
      strictTuples: true,
      allowUnionTypes: false,
      validateSchema: false,
      validateFormats: true,
      allErrors: false,
      // Referenced schemas become shared functions instead of being copied into every user.
      inlineRefs: false,
      // Formats given as functions come from formats.cjs (FORMATS_MODULE below); those given as a
      // regular expression are written into the code.
      code: { source: true, lines: false, formats: _`require("./formats.cjs")` },
      ...options,
    });
    addFormats(this.ajv);
  }
  /** The exported name of the function validating schema `id` (registered before). */
  export(id: string): string {
    let name = this.names.get(id);
    if (!name) this.names.set(id, (name = `${this.prefix}${this.names.size}`));
    return name;
  }
  /** Registers an inline schema under `key` (once) and exports it. */
  inline(key: string, schema: unknown): string {
    let id = this.inlined.get(key);
    if (!id) {
      this.inlined.set(key, (id = `${uri(key.split('/')[0]!)}/inline/${this.inlined.size}`));
      this.ajv.addSchema(schema as Json, id);
    }
    return this.export(id);
  }
  code(): string {
    return standaloneCode(this.ajv, Object.fromEntries([...this.names].map(([id, name]) => [name, id])));
  }
}

interface Variant {
  /** Document id for schema references: `api`, `api~openmetadata`. */
  docId: string;
  /** Component names whose schema differs from the base document in this variant. */
  differing: Set<string>;
}

/** Absolute reference of a component for a variant: its own copy when it differs, else the base's. */
function absolute(ref: string, base: string, variant: Variant | undefined): string {
  const name = componentName(ref);
  if (name === undefined) throw new Error(`unsupported reference ${ref}: only ${SCHEMA_REF}… is resolved`);
  return `${uri(variant?.differing.has(name) ? variant.docId : base)}${ref}`;
}

/** Components that differ between two documents, closed over "references a differing component". */
function differingComponents(base: OpenApiDocument, other: OpenApiDocument): Set<string> {
  const differing = new Set<string>();
  for (const [name, schema] of Object.entries(other.components.schemas)) {
    if (JSON.stringify(schema) !== JSON.stringify(base.components.schemas[name])) differing.add(name);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, schema] of Object.entries(base.components.schemas)) {
      if (differing.has(name)) continue;
      if ([...refsOf(schema)].some((ref) => differing.has(componentName(ref) ?? ''))) {
        differing.add(name);
        grew = true;
      }
    }
  }
  return differing;
}

function resolveComponent(doc: OpenApiDocument, node: unknown, section: string): Json {
  let current = node as Json;
  for (let i = 0; i < 10 && typeof current?.$ref === 'string'; i++) {
    const ref = current.$ref as string;
    const prefix = `#/components/${section}/`;
    if (!ref.startsWith(prefix)) break;
    current = (doc.components[section] as Record<string, Json> | undefined)?.[ref.slice(prefix.length)] as Json;
  }
  return current ?? {};
}

interface Units {
  params: Unit;
  requests: Unit;
  responses: Unit;
}

/** The table of one document: its operations, for the base and for each variant. */
function compileDocument(units: Units, docName: string, base: OpenApiDocument, variants: Map<ProfileName, { doc: OpenApiDocument; variant: Variant }>): OperationTable {
  const schemaOf = (unit: Unit, schema: unknown, variant: Variant | undefined): string => {
    const stripped = stripDocumentation(schema) as Json;
    const keys = Object.keys(stripped);
    if (keys.length === 1 && typeof stripped.$ref === 'string') return unit.export(absolute(stripped.$ref, docName, variant));
    const sensitive = variant && [...refsOf(stripped)].some((ref) => variant.differing.has(componentName(ref) ?? ''));
    const schemaWithRefs = mapRefs(stripped, (ref) => absolute(ref, docName, sensitive ? variant : undefined));
    // Keyed by content: the many operations with the same parameters share one function.
    return unit.inline(`${docName}/${JSON.stringify(schemaWithRefs)}`, schemaWithRefs);
  };

  const entriesFor = (doc: OpenApiDocument, variant: Variant | undefined): OperationEntry[] => {
    const entries: OperationEntry[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const where = `${method}${path}`;
        const entry: OperationEntry = { method: method.toUpperCase(), path, operationId: String(op.operationId ?? where), pathParams: [], responses: {} };
        if (typeof op['x-permission'] === 'string') entry.permission = op['x-permission'];

        const groups: Record<string, { properties: Json; required: string[] }> = {};
        const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => resolveComponent(doc, p, 'parameters'));
        for (const param of params) {
          const location = param.in === 'path' ? 'params' : param.in === 'query' ? 'query' : param.in === 'header' ? 'headers' : undefined;
          if (!location) continue;
          const name = location === 'headers' ? String(param.name).toLowerCase() : String(param.name);
          const group = (groups[location] ??= { properties: {}, required: [] });
          group.properties[name] = param.schema ?? {};
          if (param.required || param.in === 'path') group.required.push(name);
        }
        entry.pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        if (Object.keys(groups).length) {
          const schema = {
            type: 'object',
            properties: Object.fromEntries(Object.entries(groups).map(([k, g]) => [k, { type: 'object', properties: g.properties, required: g.required }])),
          };
          entry.params = schemaOf(units.params, schema, variant);
        }

        if (op.requestBody) {
          const body = resolveComponent(doc, op.requestBody, 'requestBodies');
          const content: Record<string, string | null> = {};
          for (const [mediaType, media] of Object.entries((body.content as Record<string, Json>) ?? {})) {
            content[mediaType] = media.schema ? schemaOf(units.requests, media.schema, variant) : null;
          }
          entry.body = { required: body.required === true, content };
        }

        for (const [status, response] of Object.entries((op.responses as Json) ?? {})) {
          const resolved = resolveComponent(doc, response, 'responses');
          const content: Record<string, string | null> = {};
          for (const [mediaType, media] of Object.entries((resolved.content as Record<string, Json>) ?? {})) {
            content[mediaType] = media.schema ? schemaOf(units.responses, media.schema, variant) : null;
          }
          entry.responses[status] = content;
        }
        entries.push(entry);
      }
    }
    return entries;
  };

  const operations = entriesFor(base, undefined);
  const table: OperationTable = { operations, components: { default: {} } };
  for (const name of Object.keys(base.components.schemas)) table.components.default![name] = units.responses.export(`${uri(docName)}${SCHEMA_REF}${name}`);
  for (const [profile, { doc, variant }] of variants) {
    const entries = entriesFor(doc, variant);
    const overrides: Record<string, OperationEntry> = {};
    entries.forEach((entry, index) => {
      if (JSON.stringify(entry) !== JSON.stringify(operations[index])) overrides[String(index)] = entry;
    });
    if (Object.keys(overrides).length) (table.overrides ??= {})[profile] = overrides;
    if (variant.differing.size) {
      table.components[profile] = Object.fromEntries([...variant.differing].map((name) => [name, units.responses.export(`${uri(variant.docId)}${SCHEMA_REF}${name}`)]));
    }
  }
  return table;
}

/** Adds a document's component schemas (and its variants' differing ones) to every unit. */
function register(units: Units, docName: string, base: OpenApiDocument, variants: Map<ProfileName, { doc: OpenApiDocument; variant: Variant }>): void {
  for (const unit of Object.values(units)) {
    unit.ajv.addSchema({ components: { schemas: stripDocumentation(base.components.schemas) } }, uri(docName));
    for (const { doc, variant } of variants.values()) {
      if (!variant.differing.size) continue;
      const schemas = Object.fromEntries(
        [...variant.differing].map((name) => [name, mapRefs(stripDocumentation(doc.components.schemas[name]), (ref) => absolute(ref, docName, variant))]),
      );
      unit.ajv.addSchema({ components: { schemas } }, uri(variant.docId));
    }
  }
}

export async function compileValidators(): Promise<Map<string, string>> {
  const bundleText = readFileSync(BUNDLE_PATH, 'utf8');
  const adminText = readFileSync(ADMIN_PATH, 'utf8');
  const base = (JSON.parse(bundleText) as { document: OpenApiDocument }).document;
  const admin = parse(adminText) as OpenApiDocument;
  admin.components ??= { schemas: {} };
  admin.components.schemas ??= {};

  const variants = new Map<ProfileName, { doc: OpenApiDocument; variant: Variant }>();
  for (const name of Object.keys(PROFILES) as ProfileName[]) {
    const doc = readDocument(profileByName(name));
    variants.set(name, { doc, variant: { docId: `api~${name}`, differing: differingComponents(base, doc) } });
  }
  const units: Units = {
    params: new Unit('p', { coerceTypes: true }),
    requests: new Unit('q', { useDefaults: true }),
    responses: new Unit('r', {}),
  };
  register(units, 'api', base, variants);
  register(units, 'admin', admin, new Map());
  const tables = { api: compileDocument(units, 'api', base, variants), admin: compileDocument(units, 'admin', admin, new Map()) };
  const source = createHash('sha256').update(bundleText).update('\0').update(adminText).digest('hex');

  const files = new Map<string, string>();
  for (const [name, unit] of Object.entries(units)) files.set(`${name}.cjs`, unit.code());
  files.set('formats.cjs', FORMATS_MODULE);
  files.set('operations.json', `${JSON.stringify(tables)}\n`);
  // The Admin API's document as JSON, so the server parses no YAML at start-up.
  files.set('admin-document.json', `${JSON.stringify(parse(adminText))}\n`);
  files.set(
    'index.cjs',
    [
      '// Generated by scripts/compile-validators.ts (npm run build:validators). Do not edit.',
      "'use strict';",
      `exports.source = ${JSON.stringify(source)};`,
      // Read on first use: the server loads the validator modules itself, with their code cache
      // (src/openapi/compiled.ts), and reads only `source` here.
      "for (const name of ['params', 'requests', 'responses']) Object.defineProperty(exports, name, { enumerable: true, get: () => require(`./${name}.cjs`) });",
      "exports.tables = require('./operations.json');",
      "Object.defineProperty(exports, 'adminDocument', { enumerable: true, get: () => require('./admin-document.json') });",
      '',
    ].join('\n'),
  );
  return files;
}

/** sha256 the compiled validators record: of the documents they were compiled from. */
export function sourcesDigest(): string {
  return createHash('sha256').update(readFileSync(BUNDLE_PATH, 'utf8')).update('\0').update(readFileSync(ADMIN_PATH, 'utf8')).digest('hex');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const files = await compileValidators();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  let bytes = 0;
  for (const [name, text] of files) {
    writeFileSync(`${OUT}${name}`, text);
    bytes += text.length;
  }
  process.stdout.write(`compiled validators: ${files.size} files, ${Math.round(bytes / 1024)} KiB, ${Date.now() - started} ms → ${OUT}\n`);
}
