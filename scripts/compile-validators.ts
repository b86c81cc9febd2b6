/**
 * `npm run build:validators`: compiles the OpenAPI documents into validators once, at build time,
 * so the server compiles nothing at run time (src/openapi/compiled.ts describes what is written).
 *
 * - Three Ajv instances (JSON Schema 2020-12, formats), written as Ajv standalone code:
 *   `params/` coerces path, query and header values to their declared types, one module per
 *   operation's parameters (p0.cjs, p1.cjs…: a request loads only its own; bench: cold start);
 *   `requests.cjs` validates request bodies without coercion and fills in the documented
 *   `default`s (as OpenMetadata does when it reads a request); `responses.cjs` validates responses
 *   and every component schema without changing them. The two request ones collect every error.
 *   What reaches a component a profile's document changes is in that profile's own module
 *   (`requests-<profile>.cjs`, `responses-<profile>.cjs`: Family below).
 * - Profiles: where the active profile's overlay of the document (src/openapi/document.ts) changes
 *   a component schema, that schema and every schema reaching it are compiled again for the profile,
 *   and the operations using them get a profile entry in the table.
 * - Documentation-only keys are dropped first: they would only make the code larger.
 *
 * - Formats are ajv-formats' full ones, `uri` with a shortcut for plain http(s) URIs (formats.cjs).
 *
 * Output: openapi/generated/validators/{requests,responses}[-<profile>].cjs, formats.cjs, params/p<N>.cjs,
 * operations.json, admin-document.json (openapi/admin.yaml as JSON) and index.cjs.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020Module, { _ } from 'ajv/dist/2020.js';
import { transform } from 'esbuild';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import type { ProfileName } from '../src/config/profiles.ts';
import { PROFILES, profileByName } from '../src/config/profiles.ts';
import type { OperationEntry, OperationOverride, OperationTable } from '../src/openapi/compiled.ts';
import { BUNDLE_PATH } from '../src/openapi/bundle-loader.ts';
import { readDocument } from '../src/openapi/document.ts';
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
 * An absolute `http(s)` URI of a reg-name host, a port and path segments of unreserved characters:
 * every string it matches matches ajv-formats' `uri` (RFC 3986), and so do the `href`s the server
 * writes (one per entity and reference answered); the full expression runs for the others
 * (bench: in-process GET by id). openapi/formats.test.ts holds the two to the same answers.
 */
const HTTP_URI = /^https?:\/\/[a-z0-9\-._~]+(?::\d+)?(?:\/[a-z0-9\-._~]*)*$/i;

/** formats.cjs: the formats the validators call, ajv-formats' full ones but for `uri`. */
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
  /** `split`: one module per exported function, in a folder named for the unit (their formats are `../formats.cjs`). */
  readonly ajv: Ajv;
  private readonly names = new Map<string, string>();
  /** Inline schemas: their key (document, operation, place) → schema id. */
  private readonly inlined = new Map<string, string>();
  constructor(
    readonly prefix: string,
    options: Json,
    readonly split = false,
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
      code: { source: true, lines: false, formats: split ? _`require("../formats.cjs")` : _`require("./formats.cjs")` },
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
  /** Each exported function's own module (a split unit), by exported name. */
  modules(): Map<string, string> {
    return new Map([...this.names].map(([id, name]) => [name, standaloneCode(this.ajv, { [name]: id })]));
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

/**
 * The request or response validators: a unit for the base document, and one for each profile whose
 * document differs in a component schema, holding what only that profile uses (what reaches a
 * differing component). A start in the contract profile then loads none of the others' code
 * (bench: cold start); their modules are `<name>.cjs` and `<name>-<profile>.cjs`, their exported
 * names `<prefix><N>` and `<prefix><i>_<N>` (i: the module's place in `files()`, from 1).
 */
class Family {
  readonly base: Unit;
  private readonly byVariant = new Map<string, { profile: string; unit: Unit }>();
  constructor(
    readonly name: string,
    prefix: string,
    options: Json,
    variants: readonly { profile: string; variant: Variant }[],
  ) {
    this.base = new Unit(prefix, options);
    for (const { profile, variant } of variants.filter((v) => v.variant.differing.size > 0)) {
      this.byVariant.set(variant.docId, { profile, unit: new Unit(`${prefix}${this.byVariant.size + 1}_`, options) });
    }
  }
  /** The unit of a variant's own schemas (the base's when the variant differs in no component). */
  unitFor(variant: Variant | undefined): Unit {
    return (variant && this.byVariant.get(variant.docId)?.unit) ?? this.base;
  }
  get units(): Unit[] {
    return [this.base, ...[...this.byVariant.values()].map((v) => v.unit)];
  }
  /** File name → unit, the base first. */
  files(): [string, Unit][] {
    return [[`${this.name}.cjs`, this.base], ...[...this.byVariant.values()].map(({ profile, unit }): [string, Unit] => [`${this.name}-${profile}.cjs`, unit])];
  }
}

interface Units {
  params: Unit;
  requests: Family;
  responses: Family;
}

const allUnits = (units: Units): Unit[] => [units.params, ...units.requests.units, ...units.responses.units];

/** The table of one document: its operations, for the base and for each variant. */
function compileDocument(units: Units, docName: string, base: OpenApiDocument, variants: Map<ProfileName, { doc: OpenApiDocument; variant: Variant }>): OperationTable {
  /** A variant's own unit for what reaches a differing component; the base's for the rest. */
  const unitOf = (kind: Unit | Family, own: Variant | undefined): Unit => (kind instanceof Family ? kind.unitFor(own) : kind);
  const schemaOf = (kind: Unit | Family, schema: unknown, variant: Variant | undefined): string => {
    const stripped = stripDocumentation(schema) as Json;
    const keys = Object.keys(stripped);
    if (keys.length === 1 && typeof stripped.$ref === 'string') {
      const own = variant?.differing.has(componentName(stripped.$ref) ?? '') ? variant : undefined;
      return unitOf(kind, own).export(absolute(stripped.$ref, docName, variant));
    }
    const sensitive = variant && [...refsOf(stripped)].some((ref) => variant.differing.has(componentName(ref) ?? '')) ? variant : undefined;
    const schemaWithRefs = mapRefs(stripped, (ref) => absolute(ref, docName, sensitive));
    // Keyed by content: the many operations with the same parameters share one function.
    return unitOf(kind, sensitive).inline(`${sensitive?.docId ?? docName}/${JSON.stringify(schemaWithRefs)}`, schemaWithRefs);
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
  for (const name of Object.keys(base.components.schemas)) table.components.default![name] = units.responses.base.export(`${uri(docName)}${SCHEMA_REF}${name}`);
  for (const [profile, { doc, variant }] of variants) {
    const entries = entriesFor(doc, variant);
    const overrides: Record<string, OperationOverride> = {};
    entries.forEach((entry, index) => {
      const override = overrideOf(operations[index]!, entry);
      if (override) overrides[String(index)] = override;
    });
    if (Object.keys(overrides).length) (table.overrides ??= {})[profile] = overrides;
    if (variant.differing.size) {
      const unit = units.responses.unitFor(variant);
      table.components[profile] = Object.fromEntries([...variant.differing].map((name) => [name, unit.export(`${uri(variant.docId)}${SCHEMA_REF}${name}`)]));
    }
  }
  return table;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a profile's entry changes in the base one: its parameters, body and the responses whose
 * validators differ (a profile changes no method, path or permission, and removes nothing). Most
 * entries differ in a response or two: writing them whole doubled operations.json (bench: cold start).
 */
function overrideOf(base: OperationEntry, entry: OperationEntry): OperationOverride | undefined {
  for (const key of ['method', 'path', 'operationId', 'permission', 'pathParams'] as const) {
    if (!same(base[key], entry[key])) throw new Error(`${base.method} ${base.path}: a profile changes its ${key}, which an override cannot hold`);
  }
  const override: OperationOverride = {};
  if (!same(base.params, entry.params)) override.params = entry.params;
  if (!same(base.body, entry.body)) override.body = entry.body;
  for (const [status, content] of Object.entries(entry.responses)) {
    if (!same(base.responses[status], content)) (override.responses ??= {})[status] = content;
  }
  if (
    Object.keys(base.responses).some((status) => !(status in entry.responses)) ||
    ('params' in override && override.params === undefined) ||
    ('body' in override && override.body === undefined)
  ) {
    throw new Error(`${base.method} ${base.path}: a profile removes a part of the operation, which an override cannot hold`);
  }
  return Object.keys(override).length > 0 ? override : undefined;
}

/**
 * The module minified, and without what nothing reads: Ajv's standalone code declares the schema
 * of every function it writes, and three in four are never referenced. A start loads the response
 * validators' base module: 2.15 → 1.45 MB, loaded in 12.7 ms instead of 17.8 (bench: cold start).
 */
async function minified(code: string): Promise<string> {
  return (await transform(code, { format: 'cjs', target: 'node20', minify: true, treeShaking: true, legalComments: 'none' })).code;
}

/** Statuses with the same content as one key, `"400,401,403"` (src/openapi/compiled.ts `responsesOf`). */
function grouped(responses: OperationEntry['responses']): OperationEntry['responses'] {
  const byContent = new Map<string, string[]>();
  for (const [status, content] of Object.entries(responses)) {
    const key = JSON.stringify(content);
    byContent.set(key, [...(byContent.get(key) ?? []), status]);
  }
  return Object.fromEntries([...byContent].map(([content, statuses]) => [statuses.join(','), JSON.parse(content) as Record<string, string | null>]));
}

/** The table with each entry's and override's responses grouped. */
function groupedResponses(table: OperationTable): OperationTable {
  const overrides = Object.fromEntries(
    Object.entries(table.overrides ?? {}).map(([profile, byIndex]) => [
      profile,
      Object.fromEntries(Object.entries(byIndex).map(([index, override]) => [index, override.responses ? { ...override, responses: grouped(override.responses) } : override])),
    ]),
  );
  return { ...table, operations: table.operations.map((entry) => ({ ...entry, responses: grouped(entry.responses) })), ...(table.overrides ? { overrides } : {}) };
}

/** Adds a document's component schemas (and its variants' differing ones) to every unit. */
function register(units: Units, docName: string, base: OpenApiDocument, variants: Map<ProfileName, { doc: OpenApiDocument; variant: Variant }>): void {
  for (const unit of allUnits(units)) {
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
  const profiles = [...variants].map(([profile, { variant }]) => ({ profile, variant }));
  const units: Units = {
    // A refused request names every problem it has, not only the first (allErrors); responses
    // stop at the first: a response the document does not allow is a server bug, answered 500.
    params: new Unit('p', { coerceTypes: true, allErrors: true }, true),
    requests: new Family('requests', 'q', { useDefaults: true, allErrors: true }, profiles),
    responses: new Family('responses', 'r', {}, profiles),
  };
  register(units, 'api', base, variants);
  register(units, 'admin', admin, new Map());
  const tables = { api: compileDocument(units, 'api', base, variants), admin: compileDocument(units, 'admin', admin, new Map()) };
  const source = createHash('sha256').update(bundleText).update('\0').update(adminText).digest('hex');

  const files = new Map<string, string>();
  const params = units.params.modules();
  const modules = new Map<string, string>();
  for (const [name, code] of params) modules.set(`params/${name}.cjs`, code);
  const families = [units.requests, units.responses];
  for (const family of families) for (const [file, unit] of family.files()) modules.set(file, unit.code());
  // Side by side: esbuild minifies on all cores.
  const minifiedModules = await Promise.all([...modules].map(async ([file, code]) => [file, await minified(code)] as const));
  for (const [file, code] of minifiedModules) files.set(file, code);
  files.set('formats.cjs', FORMATS_MODULE);
  files.set('operations.json', `${JSON.stringify({ api: groupedResponses(tables.api), admin: groupedResponses(tables.admin) })}\n`);
  // The Admin API's document as JSON, so the server parses no YAML at start-up.
  files.set('admin-document.json', `${JSON.stringify(parse(adminText))}\n`);
  // Its types, for the modules that import it (the browser build's loader, src/openapi/validators-loader.browser.ts).
  files.set(
    'index.d.cts',
    [
      '// Generated by scripts/compile-validators.ts (npm run build:validators). Do not edit.',
      'type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };',
      'declare const compiled: { source: string; params: Record<string, Validate>; requests: Record<string, Validate>; responses: Record<string, Validate>; tables: unknown; adminDocument: Record<string, unknown> };',
      'export = compiled;',
      '',
    ].join('\n'),
  );
  files.set(
    'index.cjs',
    [
      '// Generated by scripts/compile-validators.ts (npm run build:validators). Do not edit.',
      "'use strict';",
      `exports.source = ${JSON.stringify(source)};`,
      // Each family's modules, the base first (a name `<prefix><i>_<N>` is in module i): the server
      // loads them itself, with their code cache (src/openapi/validators-loader.ts), and reads
      // `source`, `modules` and `params` here.
      `exports.modules = ${JSON.stringify(Object.fromEntries(families.map((family) => [family.name, family.files().map(([file]) => file)])))};`,
      // Other readers (the browser build) get each family whole, read on first use; requires of
      // fixed names, which bundlers follow.
      ...families.map(
        (family) =>
          `{ let all; Object.defineProperty(exports, '${family.name}', { enumerable: true, get: () => (all ??= Object.assign({}, ${family
            .files()
            .map(([file]) => `require('./${file}')`)
            .join(', ')})) }); }`,
      ),
      // Each operation's parameters on first use; a require of a fixed name, which bundlers follow.
      'exports.params = {',
      ...[...params.keys()].map((name) => `  get ${name}() { return require('./params/${name}.cjs').${name}; },`),
      '};',
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
  mkdirSync(`${OUT}params`, { recursive: true });
  let bytes = 0;
  for (const [name, text] of files) {
    writeFileSync(`${OUT}${name}`, text);
    bytes += text.length;
  }
  process.stdout.write(`compiled validators: ${files.size} files, ${Math.round(bytes / 1024)} KiB, ${Date.now() - started} ms → ${OUT}\n`);
}
