/**
 * The openmetadata profiles answer each kind in the shape OpenMetadata's own JSON schema gives it
 * at its 2.0 line (docs/behaviour.md "Shapes of the openmetadata profiles"), as recorded, with the
 * upstream path and commit, in openapi/upstream/openmetadata-2.0.json: given a component, want the
 * profile's document to list exactly the upstream properties (and the ones the project keeps, each
 * with its reason in that file and in docs/behaviour.md), every upstream required name, and only
 * upstream enum values; then every answer about the demo catalog to hold to the same.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { SLOW_START, startApp } from '../../test/kit.ts';
import { profileByName } from '../../src/config/profiles.ts';
import { KINDS } from '../../src/kinds/index.ts';
import type { OpenApiDocument } from '../../src/openapi/document.ts';
import { readDocument } from '../../src/openapi/document.ts';
import { flatten, UPSTREAM_FACTS } from '../../src/openapi/profile-overlay.ts';

type Json = Record<string, unknown>;
const COMPONENTS = Object.entries(UPSTREAM_FACTS.components);
const keepsOf = (name: string): Record<string, string> => {
  const keeps = UPSTREAM_FACTS.catalogKitKeeps[name];
  return typeof keeps === 'object' ? keeps : {};
};
const upstreamEnum = (values: string[] | string): string[] => (values === '#status' ? UPSTREAM_FACTS.status.enum : (values as string[]));
const BEHAVIOUR = readFileSync(new URL('../../docs/behaviour.md', import.meta.url), 'utf8');
const SHAPES_SECTION = BEHAVIOUR.slice(
  BEHAVIOUR.indexOf('## Shapes of the openmetadata profiles'),
  BEHAVIOUR.indexOf('\n## ', BEHAVIOUR.indexOf('## Shapes of the openmetadata profiles') + 5),
);

/** The enum a property schema takes (directly, through its items, or the component it names). */
function enumOf(doc: OpenApiDocument, schema: Json | undefined): string[] | undefined {
  if (!schema) return undefined;
  if (typeof schema.$ref === 'string') return enumOf(doc, doc.components.schemas[schema.$ref.split('/').pop()!]);
  if (Array.isArray(schema.enum)) return schema.enum as string[];
  return schema.items ? enumOf(doc, schema.items as Json) : undefined;
}

describe('the facts file (openapi/upstream/openmetadata-2.0.json)', () => {
  it('names the upstream path and a full commit of every schema, and a reason for every property kept beyond it', () => {
    expect(UPSTREAM_FACTS.repository).toBe('open-metadata/OpenMetadata');
    for (const [name, shape] of [...COMPONENTS, ['status', UPSTREAM_FACTS.status] as const]) {
      expect(shape.path, name).toMatch(/^(entity|type|tests|api)\/[\w/]+\.json$/);
      expect(shape.commit, name).toMatch(/^[0-9a-f]{40}$/);
    }
    for (const [name, keeps] of Object.entries(UPSTREAM_FACTS.catalogKitKeeps)) {
      if (name === 'description') continue;
      expect(Object.keys(UPSTREAM_FACTS.components), name).toContain(name);
      for (const [property, reason] of Object.entries(keeps as Record<string, string>)) {
        expect(reason.length, `${name}.${property}`).toBeGreaterThan(40);
        expect(UPSTREAM_FACTS.components[name]!.properties, `${name}.${property} is upstream already`).not.toContain(property);
        // Listed where the reader looks for the deliberate differences.
        expect(SHAPES_SECTION, `${name}.${property}`).toContain(`\`${property}\``);
      }
    }
  });

  it('covers every kind the server serves, but the event subscriptions it names as not recorded', () => {
    const recorded = new Set(Object.keys(UPSTREAM_FACTS.components));
    const missing = KINDS.map((kind) => kind.schema).filter((schema) => !recorded.has(schema));
    expect(missing).toEqual(['EventSubscription']);
    for (const name of missing) expect(SHAPES_SECTION).toContain(name);
  });
});

describe.each(['openmetadata', 'openmetadata-1.10'] as const)('the %s document holds to the facts', (profile) => {
  const doc = readDocument(profileByName(profile));
  it.each(COMPONENTS)('%s', (name, shape) => {
    const { properties, required } = flatten(doc, doc.components.schemas[name]);
    const keeps = Object.keys(keepsOf(name));
    // Exactly the upstream properties and those kept for a reason.
    expect([...properties.keys()].sort()).toEqual([...new Set([...shape.properties, ...keeps])].sort());
    for (const key of required) expect([...shape.properties, ...keeps], `required ${key}`).toContain(key);
    for (const [key, values] of Object.entries(shape.enums)) {
      const mine = enumOf(doc, properties.get(key));
      if (!mine) continue;
      const allowed = upstreamEnum(values);
      expect(
        mine.filter((v) => !allowed.includes(v)),
        `${name}.${key}`,
      ).toEqual([]);
      if (key === 'entityStatus') expect(mine, `${name}.entityStatus is status.json's`).toEqual(allowed);
    }
  });
});

describe('the contract document lists what the interface lists', () => {
  it('a classification has no tags, domains or data products', () => {
    const doc = readDocument(profileByName('contract'));
    const { properties } = flatten(doc, doc.components.schemas.Classification);
    for (const key of ['tags', 'domains', 'dataProducts']) expect(properties.has(key), key).toBe(false);
    for (const key of ['owners', 'provider', 'mutuallyExclusive']) expect(properties.has(key), key).toBe(true);
  });
});

describe('every answer about the demo catalog holds to the facts', () => {
  const apps: Partial<Record<'openmetadata' | 'contract', TestApp>> = {};
  beforeAll(async () => {
    apps.openmetadata = await startApp({ profile: 'openmetadata', fixtures: 'default' });
    apps.contract = await startApp({ fixtures: 'default' });
  }, SLOW_START);

  /** Every entity of a kind with every field, as a list answers it. */
  const all = async (app: TestApp, collection: string): Promise<Json[]> => {
    const res = await app.get(`/api/v1/${collection}?limit=1000000&fields=*&include=all`).expect(200);
    return res.body.data as Json[];
  };

  it.each(KINDS.filter((kind) => UPSTREAM_FACTS.components[kind.schema]).map((kind) => [kind.type, kind] as const))('openmetadata: %s', async (_type, kind) => {
    const shape = UPSTREAM_FACTS.components[kind.schema]!;
    const allowed = new Set([...shape.properties, ...Object.keys(keepsOf(kind.schema))]);
    for (const entity of await all(apps.openmetadata!, kind.collection)) {
      expect(
        Object.keys(entity).filter((key) => !allowed.has(key)),
        String(entity.fullyQualifiedName),
      ).toEqual([]);
      for (const [key, values] of Object.entries(shape.enums)) {
        const value = entity[key];
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) expect(upstreamEnum(values), `${String(entity.fullyQualifiedName)} ${key}`).toContain(v);
      }
    }
  });

  it('openmetadata: the fields the real server takes are taken (a table: schemaDefinition, dataModel); others are 400 Invalid field name', async () => {
    const [table] = await all(apps.openmetadata!, 'tables');
    await apps.openmetadata!.get(`/api/v1/tables/${String(table!.id)}?fields=schemaDefinition,dataModel`).expect(200);
    const refused = await apps.openmetadata!.get(`/api/v1/tables/${String(table!.id)}?fields=columns,nope`).expect(400);
    expect(refused.body.message).toBe('Invalid field name nope');
  });

  it('contract: a classification answers no tags or domains', async () => {
    const classifications = await all(apps.contract!, 'classifications');
    expect(classifications.length).toBeGreaterThan(0);
    for (const c of classifications) expect(Object.keys(c).filter((key) => ['tags', 'domains', 'dataProducts'].includes(key))).toEqual([]);
  });
});
