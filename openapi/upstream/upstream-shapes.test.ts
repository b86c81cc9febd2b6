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
import { flatten, requestOmits, UPSTREAM_FACTS, UPSTREAM_REQUESTS, upstreamEnum } from '../../src/openapi/profile-overlay.ts';

type Json = Record<string, unknown>;
const COMPONENTS = Object.entries(UPSTREAM_FACTS.components);
const keepsOf = (name: string): Record<string, string> => {
  const keeps = UPSTREAM_FACTS.catalogKitKeeps[name];
  return typeof keeps === 'object' ? keeps : {};
};
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

  it('records each create request with its path and commit, or says why not; every property left out has a reason', () => {
    const creates = Object.keys(readDocument(profileByName('contract')).components.schemas).filter((name) => /^Create[A-Z]/.test(name) && name !== 'CreateEntityBase');
    const recorded = UPSTREAM_REQUESTS.map(([name]) => name);
    const notRecorded = Object.keys(UPSTREAM_FACTS.requestsNotRecorded).filter((name) => name !== 'description');
    expect([...recorded, ...notRecorded].sort()).toEqual(creates.sort());
    expect(recorded.filter((name) => notRecorded.includes(name))).toEqual([]);
    for (const [name, shape] of UPSTREAM_REQUESTS) {
      expect(shape.path, name).toMatch(/^api\/[\w/]+\/create\w+\.json$/);
      expect(shape.commit, name).toMatch(/^[0-9a-f]{40}$/);
      expect(shape.additionalProperties, name).toBe(false);
      // The 2.0 line: domains a list; no single owner or domain.
      expect(shape.properties, name).not.toContain('domain');
      expect(shape.properties, name).not.toContain('owner');
      for (const key of requestOmits(name)) {
        expect(shape.properties, `${name}.${key}`).toContain(key);
        expect(SHAPES_SECTION, `${name}.${key}`).toContain(`\`${key}\``);
      }
    }
    for (const name of notRecorded) {
      expect(UPSTREAM_FACTS.requestsNotRecorded[name]!.length, name).toBeGreaterThan(40);
      expect(SHAPES_SECTION, name).toContain(name);
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
      const allowed = upstreamEnum(values, key);
      expect(
        mine.filter((v) => !allowed.includes(v)),
        `${name}.${key}`,
      ).toEqual([]);
      if (key === 'entityStatus') expect(mine, `${name}.entityStatus is status.json's`).toEqual(allowed);
    }
  });
});

describe.each(['openmetadata', 'openmetadata-1.10'] as const)('the %s document takes the create requests as recorded', (profile) => {
  const doc = readDocument(profileByName(profile));
  it.each(UPSTREAM_REQUESTS)('%s', (name, shape) => {
    const schema = doc.components.schemas[name]!;
    const { properties, required } = flatten(doc, schema);
    // Exactly the upstream properties but those left out for a reason; upstream's required names; closed.
    expect([...properties.keys()].sort()).toEqual(shape.properties.filter((key) => !requestOmits(name).includes(key)).sort());
    expect([...required].sort()).toEqual([...shape.required].sort());
    expect(schema.additionalProperties).toBe(false);
    for (const [key, values] of Object.entries(shape.enums)) {
      const mine = enumOf(doc, properties.get(key));
      expect(mine, `${name}.${key}`).toBeDefined();
      const allowed = upstreamEnum(values, key);
      expect(
        mine!.filter((v) => !allowed.includes(v)),
        `${name}.${key}`,
      ).toEqual([]);
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
        for (const v of Array.isArray(value) ? value : [value]) expect(upstreamEnum(values, key), `${String(entity.fullyQualifiedName)} ${key}`).toContain(v);
      }
    }
  });

  it('openmetadata: the fields the real server takes are taken (a table: schemaDefinition, dataModel); others are 400 Invalid field name', async () => {
    const [table] = await all(apps.openmetadata!, 'tables');
    await apps.openmetadata!.get(`/api/v1/tables/${String(table!.id)}?fields=schemaDefinition,dataModel`).expect(200);
    const refused = await apps.openmetadata!.get(`/api/v1/tables/${String(table!.id)}?fields=columns,nope`).expect(400);
    expect(refused.body.message).toBe('Invalid field name nope');
  });

  it('openmetadata: a create request takes what the recorded request schema takes, and refuses the rest with 400 naming it', async () => {
    const om = apps.openmetadata!;
    const [service] = await all(om, 'services/messagingServices');
    const [classification] = await all(om, 'classifications');
    const topic = { name: om.unique('om2_topic'), service: String(service!.fullyQualifiedName), partitions: 1 };
    // given: a request and what it adds; want: the status and, for a 400, the words of the message.
    const rows: [string, string, Json, number, RegExp?][] = [
      ['topics', 'domain, one FQN (2.0 has domains)', { ...topic, domain: 'Marketing' }, 400, /domain/],
      ['topics', 'sourceHash, which the server does not hold', { ...topic, sourceHash: 'abc' }, 400, /sourceHash/],
      ['topics', 'domains as a list', { ...topic, domains: [] }, 201],
      ['tags', 'no description (required upstream)', { name: om.unique('t'), classification: classification!.fullyQualifiedName }, 400, /description/],
      [
        'tags',
        'extension, which createTag.json lacks',
        { name: om.unique('t'), description: 'd', classification: classification!.fullyQualifiedName, extension: {} },
        400,
        /extension/,
      ],
      ['tags', 'neither classification nor parent', { name: om.unique('t'), description: 'd' }, 400, /classification must not be null/],
      ['teams', 'no teamType (required upstream)', { name: om.unique('team') }, 400, /teamType/],
      ['teams', 'a teamType', { name: om.unique('team'), teamType: 'Group' }, 201],
    ];
    for (const [collection, given, body, status, words] of rows) {
      const res = await om.post(`/api/v1/${collection}`, body);
      expect(res.status, `${collection}: ${given}: ${JSON.stringify(res.body)}`).toBe(status);
      if (words) expect(res.body.message, `${collection}: ${given}`).toMatch(words);
    }
    // A tag named under a parent tag needs no classification: the parent names it.
    const parent = await om.create('tags', { name: om.unique('p'), description: 'd', classification: classification!.fullyQualifiedName });
    const child = await om.create('tags', { name: om.unique('c'), description: 'd', parent: parent.fullyQualifiedName });
    expect((child.classification as Json).id).toBe(classification!.id);
  });

  it('contract: a create request keeps the document shape (a tag needs no description) and is closed too (an unknown property is 400)', async () => {
    const contract = apps.contract!;
    const [classification] = await all(contract, 'classifications');
    await contract.post('/api/v1/tags', { name: contract.unique('t'), classification: classification!.fullyQualifiedName }).expect(201);
    const refused = await contract.post('/api/v1/tags', { name: contract.unique('t'), classification: classification!.fullyQualifiedName, sourceHash: 'x' }).expect(400);
    expect(refused.body.message).toMatch(/sourceHash/);
  });

  it('contract: a classification answers no tags or domains', async () => {
    const classifications = await all(apps.contract!, 'classifications');
    expect(classifications.length).toBeGreaterThan(0);
    for (const c of classifications) expect(Object.keys(c).filter((key) => ['tags', 'domains', 'dataProducts'].includes(key))).toEqual([]);
  });
});
