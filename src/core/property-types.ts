/**
 * The property types a custom property can have (docs/behaviour.md "Custom properties";
 * OpenMetadata's types of category `field`: the `@om-field-type` definitions of type/basic.json and
 * customProperties/complexTypes.json, and `hyperlink-cp`): each with its description, the JSON
 * schema its values follow, what its `customPropertyConfig` must hold, and the check of a value —
 * which names the property in every message, in OpenMetadata's words where it has them
 * (`CustomPropertyValidator`, `TypeRepository.validateProperty`).
 *
 * Not served: `table-cp` (a value that is a table of rows under configured columns); a property
 * type the server does not list is a 404 when a property names it.
 */
import { sha1 } from '../platform/digest.ts';
import { hex } from '../platform/encoding.ts';
import { CatalogError } from './errors.ts';
import type { CatalogContext } from './context.ts';
import type { EntityReference } from './entity.ts';
import { referenceTo } from './entity.ts';
import { checkFormat, formatMatches } from './date-formats.ts';

/** A stable UUID for a name (the SHA-1 name-based layout of RFC 4122), so type ids survive restarts and exports. */
export function nameUuid(name: string): string {
  const h = hex(sha1(`catalog-kit type ${name}`));
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A custom property's configuration: `customPropertyConfig.config`. */
type Config = unknown;

export interface PropertyType {
  readonly name: string;
  readonly description: string;
  /** The JSON schema of a value (served as the type's `schema`, a string). */
  readonly schema: Record<string, unknown>;
  /** Checks the configuration a property of this type is added with; throws 400. */
  checkConfig?(config: Config, property: string): void;
  /**
   * Checks a value (throws 400 naming the property) and returns it as stored: enum values
   * sorted, entity references completed.
   */
  value(ctx: CatalogContext, property: string, value: unknown, config: Config): unknown;
}

const invalid = (property: string, detail: string): CatalogError => CatalogError.badRequest(`Custom field ${property} has invalid JSON [${detail}]`);

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function expect(property: string, value: unknown, ok: boolean, wanted: string): void {
  if (!ok) throw invalid(property, `$: ${typeName(value)} found, ${wanted} expected`);
}

function text(name: string, description: string): PropertyType {
  return {
    name,
    description,
    schema: { type: 'string' },
    value: (_ctx, property, value) => {
      expect(property, value, typeof value === 'string', 'string');
      return value;
    },
  };
}

const EMAIL = /^[\S.!#$%&’*+/=?^_`{|}~-]+@\S+\.\S+$/;

/** The entity types a reference may name: `config` lists them (at least one, each a kind the server serves). */
function checkEntityTypes(ctx: CatalogContext | undefined, config: Config, property: string): string[] {
  if (!Array.isArray(config) || config.length === 0 || !config.every((t) => typeof t === 'string')) {
    throw CatalogError.badRequest(`Custom Property ${property} of type entityReference must have config listing the entity types it may name`);
  }
  if (ctx) {
    for (const type of config as string[])
      if (!ctx.kinds.all.some((k) => k.type === type)) throw CatalogError.badRequest(`Custom Property ${property}: unknown entity type ${type}`);
  }
  return config as string[];
}

function reference(ctx: CatalogContext, property: string, value: unknown, allowed: readonly string[]): EntityReference {
  const ref = value as { id?: unknown; type?: unknown } | null;
  expect(property, value, !!ref && typeof ref === 'object' && !Array.isArray(ref) && typeof ref.id === 'string' && typeof ref.type === 'string', 'entity reference {id, type}');
  const type = ref!.type as string;
  if (!allowed.includes(type)) throw CatalogError.badRequest(`Custom field ${property}: entity type ${type} is not one of ${allowed.join(', ')}`);
  const stored = ctx.store.get(ref!.id as string);
  if (!stored || stored.type !== type || stored.entity.deleted) throw CatalogError.badRequest(`Custom field ${property}: ${type} instance for ${String(ref!.id)} not found`);
  return referenceTo(stored.type, stored.entity);
}

function dateType(name: 'date-cp' | 'dateTime-cp' | 'time-cp', description: string): PropertyType {
  return {
    name,
    description,
    schema: { type: 'string' },
    checkConfig: (config) => checkFormat(name, config),
    value: (_ctx, property, value, config) => {
      expect(property, value, typeof value === 'string', 'string');
      if (!formatMatches(String(config), value as string)) throw CatalogError.badRequest(`Custom field ${property} value is not as per defined format ${String(config)}`);
      return value;
    },
  };
}

interface EnumConfig {
  values?: unknown;
  multiSelect?: unknown;
}

const PROPERTY_TYPES: readonly PropertyType[] = [
  text('string', 'A String type.'),
  text('markdown', 'Text in Markdown format.'),
  text('sqlQuery', "SQL query statement. Example - 'select * from orders'."),
  text('duration', "Duration in ISO 8601 format in UTC. Example - 'P23DT23H'."),
  {
    name: 'integer',
    description: 'An integer type.',
    schema: { type: 'integer' },
    value: (_ctx, property, value) => {
      expect(property, value, Number.isInteger(value), 'integer');
      return value;
    },
  },
  {
    name: 'number',
    description: 'A numeric type that includes integer or floating point numbers.',
    schema: { type: 'number' },
    value: (_ctx, property, value) => {
      expect(property, value, typeof value === 'number' && Number.isFinite(value), 'number');
      return value;
    },
  },
  {
    name: 'email',
    description: 'Email address of a user or other entities.',
    schema: { type: 'string', format: 'email', minLength: 6, maxLength: 127 },
    value: (_ctx, property, value) => {
      expect(property, value, typeof value === 'string', 'string');
      const email = value as string;
      if (email.length < 6 || email.length > 127 || !EMAIL.test(email)) throw invalid(property, `$: does not match the email pattern`);
      return value;
    },
  },
  {
    name: 'timestamp',
    description: 'Timestamp in Unix epoch time milliseconds.',
    schema: { type: 'integer', format: 'utc-millisec' },
    value: (_ctx, property, value) => {
      expect(property, value, Number.isInteger(value), 'integer');
      return value;
    },
  },
  {
    name: 'timeInterval',
    description: 'Time interval in unixTimeMillis.',
    schema: { type: 'object', properties: { start: { type: 'integer' }, end: { type: 'integer' } }, additionalProperties: false },
    value: (_ctx, property, value) => {
      expect(property, value, typeName(value) === 'object', 'object');
      for (const [key, part] of Object.entries(value as Record<string, unknown>)) {
        if (key !== 'start' && key !== 'end') throw invalid(property, `$.${key}: is not defined in the schema and the schema does not allow additional properties`);
        expect(property, part, Number.isInteger(part), 'integer');
      }
      return value;
    },
  },
  {
    name: 'enum',
    description: 'List of values in Enum.',
    schema: { type: 'array', items: { type: 'string' } },
    checkConfig: (config) => {
      if (config === undefined || config === null || typeof config !== 'object' || Array.isArray(config))
        throw CatalogError.badRequest('Enum Custom Property Type must have EnumConfig.');
      const values = (config as EnumConfig).values;
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
        throw CatalogError.badRequest('Enum Custom Property Type must have EnumConfig populated with values.');
      }
      if (new Set(values).size !== values.length) throw CatalogError.badRequest('Enum Custom Property values cannot have duplicates.');
    },
    value: (_ctx, property, value, config) => {
      expect(property, value, Array.isArray(value) && value.every((v) => typeof v === 'string'), 'array of strings');
      const { values, multiSelect } = config as EnumConfig;
      const chosen = value as string[];
      if (multiSelect !== true && chosen.length > 1) throw CatalogError.badRequest(`Only one value allowed for non-multiSelect ${property} property`);
      const unknown = chosen.filter((v) => !(values as string[]).includes(v));
      if (unknown.length) throw CatalogError.badRequest(`Values '[${unknown.join(', ')}]' not supported for property ${property}`);
      return [...chosen].sort();
    },
  },
  dateType('date-cp', 'Date as defined in custom property.'),
  dateType('dateTime-cp', 'Date and time as defined in custom property.'),
  dateType('time-cp', 'Time as defined in custom property.'),
  {
    name: 'entityReference',
    description: 'Entity Reference for Custom Property.',
    schema: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, type: { type: 'string' } }, required: ['id', 'type'] },
    checkConfig: (config, property) => void checkEntityTypes(undefined, config, property),
    value: (ctx, property, value, config) => reference(ctx, property, value, checkEntityTypes(ctx, config, property)),
  },
  {
    name: 'entityReferenceList',
    description: 'Entity Reference List for Custom Property.',
    schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, type: { type: 'string' } }, required: ['id', 'type'] } },
    checkConfig: (config, property) => void checkEntityTypes(undefined, config, property),
    value: (ctx, property, value, config) => {
      expect(property, value, Array.isArray(value), 'array');
      const allowed = checkEntityTypes(ctx, config, property);
      return (value as unknown[]).map((item) => reference(ctx, property, item, allowed));
    },
  },
  {
    name: 'hyperlink-cp',
    description: 'A URL with an optional display text.',
    schema: { type: 'object', properties: { url: { type: 'string', format: 'uri' }, displayText: { type: 'string' } }, required: ['url'], additionalProperties: false },
    value: (_ctx, property, value) => {
      const link = value as { url?: unknown; displayText?: unknown } | null;
      expect(property, value, typeName(value) === 'object' && typeof link!.url === 'string', 'object with a url');
      for (const key of Object.keys(link!))
        if (key !== 'url' && key !== 'displayText') throw invalid(property, `$.${key}: is not defined in the schema and the schema does not allow additional properties`);
      if (link!.displayText !== undefined) expect(property, link!.displayText, typeof link!.displayText === 'string', 'string');
      if (!/^https?:\/\//i.test(link!.url as string)) throw CatalogError.badRequest(`Invalid URL protocol for field '${property}': URL must use http or https protocol`);
      return value;
    },
  },
];

const BY_NAME = new Map(PROPERTY_TYPES.map((t) => [t.name, t]));
const BY_ID = new Map(PROPERTY_TYPES.map((t) => [nameUuid(t.name), t]));

export function propertyTypes(): readonly PropertyType[] {
  return PROPERTY_TYPES;
}

export function propertyTypeNamed(name: string): PropertyType | undefined {
  return BY_NAME.get(name);
}

export function propertyTypeWithId(id: string): PropertyType | undefined {
  return BY_ID.get(id);
}
