/**
 * What a profile serves where it differs from the document as written (docs/behaviour.md
 * "Profiles"): the document is written as the `contract` profile and OpenMetadata's 2.0 line take
 * it, and each row of openapi/profiles.json that changes what a request may carry changes the
 * profile's copy here. The validators are compiled from these copies (scripts/compile-validators.ts)
 * and `/openapi.json` serves them, so a profile's document says exactly what its server accepts.
 */
import UPSTREAM from '../../openapi/upstream/openmetadata-2.0.json' with { type: 'json' };
import type { Profile } from '../config/profiles.ts';
import type { JsonSchema, OpenApiDocument } from './document.ts';

/** What openapi/upstream/openmetadata-2.0.json records of one upstream schema. */
export interface UpstreamShape {
  path: string;
  commit: string;
  additionalProperties?: boolean | null;
  properties: string[];
  required: string[];
  /** Property → its enum; `#status` is the status type's (`status.enum`). */
  enums: Record<string, string[] | string>;
  lineNote?: string;
}

export interface UpstreamFacts {
  repository: string;
  folder: string;
  status: { path: string; commit: string; enum: string[]; default: string };
  components: Record<string, UpstreamShape>;
  /** Component → property → why the openmetadata profiles answer it though upstream does not list it. */
  catalogKitKeeps: Record<string, Record<string, string> | string>;
  /** Create request components recorded at the 2.0 line (`#Kind` in `enums`: the enum of that property of the recorded kind); `description` is text. */
  requests: Record<string, UpstreamShape | string>;
  /** Request → upstream property the openmetadata profiles do not take → why. */
  catalogKitOmitsFromRequests: Record<string, Record<string, string> | string>;
  /** Create request components of the document not recorded, each with the reason. */
  requestsNotRecorded: Record<string, string>;
}

export const UPSTREAM_FACTS = UPSTREAM as unknown as UpstreamFacts;

/** The recorded create requests, by component name. */
export const UPSTREAM_REQUESTS: [string, UpstreamShape][] = Object.entries(UPSTREAM_FACTS.requests).filter(
  (entry): entry is [string, UpstreamShape] => typeof entry[1] === 'object',
);

/** The upstream properties of a recorded request that the openmetadata profiles leave out. */
export function requestOmits(name: string): string[] {
  const omits = UPSTREAM_FACTS.catalogKitOmitsFromRequests[name];
  return typeof omits === 'object' ? Object.keys(omits) : [];
}

/** The enum values upstream allows: a list, `#status` (the status type's) or `#Kind` (that property's enum in the recorded kind). */
export function upstreamEnum(values: string[] | string, property: string): string[] {
  if (Array.isArray(values)) return values;
  if (values === '#status') return UPSTREAM_FACTS.status.enum;
  const kind = UPSTREAM_FACTS.components[values.slice(1)];
  const of = kind?.enums[property];
  if (!of) throw new Error(`openapi/upstream/openmetadata-2.0.json: ${values} records no enum of ${property}`);
  return upstreamEnum(of, property);
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** Changes `doc` (a fresh copy of the bundle) into what `profile` serves. */
export function applyProfileOverlay(doc: OpenApiDocument, profile: Profile): void {
  if (!profile.serviceConnectionRequired) relaxServiceConnection(doc);
  const name = doc.components.schemas.EntityName;
  if (name && name.pattern !== profile.entityNamePattern) name.pattern = profile.entityNamePattern;
  if (!profile.followerBodyMayBeText) dropTextFollowerBodies(doc);
  if (profile.entityShapes === 'upstream') {
    for (const [name, shape] of Object.entries(UPSTREAM_FACTS.components)) shapeAsUpstream(doc, name, shape);
    for (const [name, shape] of UPSTREAM_REQUESTS) requestAsUpstream(doc, name, shape);
  }
  listFieldNames(doc);
  for (const param of queryParameters(doc)) {
    // 1.x binds one `search_after` string split at commas; 2.0 repeats the parameter per sort value.
    if (param.name === 'search_after' && profile.searchAfter === 'joined') param.schema = { type: 'string', maxLength: 2048 };
    // 1.x takes one status; 2.0 several, each checked against the enum.
    if (param.name === 'testCaseStatus' && profile.testCaseStatusFilter === 'one') param.schema = { $ref: '#/components/schemas/TestCaseStatus' };
  }
}

function relaxServiceConnection(doc: OpenApiDocument): void {
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (!/^Create\w+Service$/.test(name)) continue;
    for (const part of (schema.allOf as JsonSchema[] | undefined) ?? []) {
      if (Array.isArray(part.required)) part.required = part.required.filter((f) => f !== 'connection');
    }
  }
}

/** The add-follower operations take the user id as JSON only (OpenMetadata answers 415 to text). */
function dropTextFollowerBodies(doc: OpenApiDocument): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.endsWith('/followers')) continue;
    const content = ((item.put as Json | undefined)?.requestBody as Json | undefined)?.content as Json | undefined;
    if (content) delete content['text/plain'];
  }
}

const resolve = (doc: OpenApiDocument, schema: Json | undefined): Json | undefined => {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? resolve(doc, doc.components.schemas[ref.split('/').pop()!]) : schema;
};

/** The properties and required names of a schema, its `allOf` parts and the components they name included (the first part naming a property wins). */
export function flatten(
  doc: OpenApiDocument,
  schema: Json | undefined,
  properties = new Map<string, Json>(),
  required = new Set<string>(),
): { properties: Map<string, Json>; required: Set<string> } {
  const s = resolve(doc, schema);
  if (!s) return { properties, required };
  for (const [key, value] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {})) if (!properties.has(key)) properties.set(key, value);
  for (const key of (s.required as string[] | undefined) ?? []) required.add(key);
  for (const part of (s.allOf as Json[] | undefined) ?? []) flatten(doc, part, properties, required);
  return { properties, required };
}

/** The schema holding a property's enum: the property, its items, or the component either names. */
function enumHolder(doc: OpenApiDocument, schema: Json | undefined): Json | undefined {
  const s = resolve(doc, schema);
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return s;
  if (s.items) return enumHolder(doc, s.items as Json);
  return undefined;
}

/**
 * The component as OpenMetadata's schema has it (docs/behaviour.md "Shapes of the openmetadata
 * profiles"): one object with the properties of the document that upstream lists (and those the
 * project keeps, with their reasons in the facts file), every other upstream property as any
 * value (so `fields` may name it), and each enum cut to the upstream values. Enums are shared
 * components: cutting one cuts what a request may send as well, so no answer can carry a value
 * the profile refuses.
 */
function shapeAsUpstream(doc: OpenApiDocument, name: string, shape: UpstreamShape): void {
  const original = doc.components.schemas[name];
  if (!original) return;
  const keeps = UPSTREAM_FACTS.catalogKitKeeps[name];
  const kept = new Set([...shape.properties, ...(typeof keeps === 'object' ? Object.keys(keeps) : [])]);
  const { properties, required } = flatten(doc, original);
  const out: Record<string, Json> = {};
  for (const [key, value] of properties) if (kept.has(key)) out[key] = value;
  for (const key of shape.properties) out[key] ??= {};
  for (const [key, values] of Object.entries(shape.enums)) {
    const holder = enumHolder(doc, out[key]);
    if (!holder) continue;
    const allowed = upstreamEnum(values, key);
    holder.enum = key === 'entityStatus' ? [...allowed] : (holder.enum as string[]).filter((v) => allowed.includes(v));
  }
  const schema: Json = { type: 'object', properties: out, required: [...required].filter((key) => kept.has(key)) };
  if (typeof original.description === 'string') schema.description = original.description;
  // Left open, as the document's entities are: what is stored beyond the list (a new entity's empty
  // arrays) may be imported back; answers leave it out (src/core/projection.ts `render`).
  doc.components.schemas[name] = schema;
}

/**
 * A create request as OpenMetadata's schema has it at the 2.0 line: the properties of the document
 * that upstream lists (less those the server does not hold, each with its reason in the facts file),
 * upstream's required names, and no other property: upstream's request schemas have
 * `additionalProperties: false`, so the real server answers 400 to an unknown one, and so does the
 * profile (`domain`, one FQN, is such a property at 2.0, where `domains` is a list).
 */
function requestAsUpstream(doc: OpenApiDocument, name: string, shape: UpstreamShape): void {
  const original = doc.components.schemas[name];
  if (!original) return;
  const taken = new Set(shape.properties.filter((key) => !requestOmits(name).includes(key)));
  const { properties } = flatten(doc, original);
  const out: Record<string, Json> = {};
  for (const [key, value] of properties) if (taken.has(key)) out[key] = value;
  const schema: Json = { type: 'object', properties: out, required: shape.required.filter((key) => taken.has(key)), additionalProperties: false };
  const said = typeof original.description === 'string' ? `${original.description.trimEnd()}\n\n` : '';
  schema.description = `${said}This profile takes the properties and required names of OpenMetadata's ${shape.path} (docs/behaviour.md "Shapes of the openmetadata profiles").`;
  doc.components.schemas[name] = schema;
}

const FIELDS_REF = '#/components/parameters/Fields';

/**
 * `fields` as each operation takes it: the shared parameter becomes the operation's own, whose
 * pattern lists the names of its entity schema (the properties `fields` may name, src/core/projection.ts
 * `parseFields`), comma-separated, `*` for all; so a client or a generator sees what the server takes.
 */
function listFieldNames(doc: OpenApiDocument): void {
  const shared = (doc.components.parameters as Record<string, Json> | undefined)?.Fields;
  if (!shared) return;
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      const params = op?.parameters as Json[] | undefined;
      const at = params?.findIndex((param) => param.$ref === FIELDS_REF) ?? -1;
      if (!op || !params || at < 0) continue;
      const entity = entitySchemaOf(doc, op);
      if (!entity) continue;
      const names = [...flatten(doc, doc.components.schemas[entity]).properties.keys()].sort();
      params[at] = {
        ...shared,
        description: `${String(shared.description ?? '')}\nThe names this operation takes: ${names.map((n) => `\`${n}\``).join(', ')}.\n`,
        schema: { type: 'string', maxLength: 2048, pattern: fieldsPattern(names) },
      };
    }
  }
}

/** `a,b` of the names, `*`, spaces and empty items allowed (the server trims and skips them). */
export function fieldsPattern(names: readonly string[]): string {
  // Spaces go to the leading run unless a name came first: no two ways to match, so no backtracking.
  const one = `\\s*(?:(?:\\*|${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\s*)?`;
  return `^${one}(?:,${one})*$`;
}

/** The component an operation answers about: its 200 answer, or the items of a list's `data`. */
function entitySchemaOf(doc: OpenApiDocument, op: Json): string | undefined {
  const responses = op.responses as Record<string, Json> | undefined;
  const schema = (((responses?.['200'] ?? responses?.['201'])?.content as Record<string, Json> | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
  const name = typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined;
  if (!name) return undefined;
  const items = ((doc.components.schemas[name]?.properties as Record<string, Json> | undefined)?.data as Json | undefined)?.items as Json | undefined;
  return typeof items?.$ref === 'string' ? items.$ref.split('/').pop() : name;
}

/** Every inline query parameter of every operation (shared component parameters are not changed here). */
function* queryParameters(doc: OpenApiDocument): Generator<Json> {
  for (const item of Object.values(doc.paths)) {
    const shared = (item.parameters as Json[] | undefined) ?? [];
    for (const param of shared) if (param.in === 'query') yield param;
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      for (const param of (op?.parameters as Json[] | undefined) ?? []) if (param.in === 'query') yield param;
    }
  }
}
