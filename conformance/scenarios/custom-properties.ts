/**
 * Custom properties (docs/behaviour.md "Custom properties"): the scenario declares a string
 * property on the container type (`PUT /v1/metadata/types/<id>`), then checks that a container's
 * `extension` value of it round-trips through create, PATCH and upsert, and that a value of a
 * property nobody declared is refused with 400 on each of them and changes nothing. The property
 * is removed again at the end (a JSON Patch of the type), whatever happened: the type is shared by
 * every container of the target.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { createBody, KINDS } from '../kinds.ts';
import type { ModelEntity } from '../model.ts';
import { createEntity, entityPath } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';

const PATCH_TYPE = 'application/json-patch+json';
const TYPES = '/v1/metadata/types';

/** The container as it is now, with its extension. */
async function readWithExtension(s: Session, e: ModelEntity, include?: 'all'): Promise<{ ex: Exchange; body: Record<string, unknown> | undefined }> {
  const ex = await s.send({ method: 'GET', path: entityPath(e, 'id'), query: { fields: 'extension', include } });
  return { ex, body: asObject(ex.json) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Removes the property `name` from the type, if it is there. */
async function undeclare(s: Session, typeId: string, name: string): Promise<void> {
  const read = await s.send({ method: 'GET', path: `${TYPES}/${typeId}`, query: { fields: 'customProperties' } });
  const index = (asArray(asObject(read.json)?.customProperties) ?? []).findIndex((p) => asObject(p)?.name === name);
  if (index < 0) return;
  await s.send({
    method: 'PATCH',
    path: `${TYPES}/${typeId}`,
    contentType: PATCH_TYPE,
    body: [
      { op: 'test', path: `/customProperties/${index}/name`, value: name },
      { op: 'remove', path: `/customProperties/${index}` },
    ],
  });
}

export const customProperties: Scenario = {
  name: 'custom-properties',
  rules: ['custom-properties.declared-round-trip', 'custom-properties.undeclared-refused', 'custom-properties.wrong-type-refused'],
  async run(s, m) {
    const containerType = setupOk(await s.send({ method: 'GET', path: `${TYPES}/name/container` }), [200], 'read the container type');
    const stringType = setupOk(await s.send({ method: 'GET', path: `${TYPES}/name/string` }), [200], 'read the string property type');
    if (typeof containerType.id !== 'string' || typeof stringType.id !== 'string') throw new SetupError('the container or string type has no id');
    const typeId = containerType.id;
    const prop = m.freshName('prop');
    try {
      const declared = await s.send({
        method: 'PUT',
        path: `${TYPES}/${typeId}`,
        body: { name: prop, description: 'declared by catalog-kit conform', propertyType: { id: stringType.id, type: 'type' } },
      });
      setupOk(declared, [200], `declare the custom property ${prop} on the container type`);
      await roundTripAndRefusals(s, m, prop);
    } finally {
      await undeclare(s, typeId, prop);
    }
  },
};

async function roundTripAndRefusals(s: Session, m: Parameters<Scenario['run']>[1], prop: string): Promise<void> {
  const c = s.checker;
  const { entity: service } = await createEntity(s, m, KINDS.storageService, null, { checkFqn: false });
  if (!service) throw new SetupError('could not create a storage service');
  const rt = 'custom-properties.declared-round-trip';

  // Declared: the value is stored as sent, through create, PATCH and upsert.
  const name = m.freshName('c');
  const body = { ...createBody(KINDS.container, name, 'created by catalog-kit conform (container)', { serviceFqn: service.fqn }), extension: { [prop]: 'first' } };
  const created = await createEntity(s, m, KINDS.container, service, { checkFqn: false, body });
  const e = created.entity;
  if (!e) throw new SetupError('could not create a container with a declared extension');
  c.check(
    rt,
    same(asObject(created.ex.json)?.extension, { [prop]: 'first' }),
    `the created container's extension {${prop}: "first"}`,
    () => created.ex.responseText.slice(0, 300),
    created.ex,
  );
  let now = await readWithExtension(s, e);
  if (
    !c.check(
      rt,
      now.ex.status === 200 && same(now.body?.extension, { [prop]: 'first' }),
      `GET with fields=extension: {${prop}: "first"}`,
      () => now.ex.responseText.slice(0, 300),
      now.ex,
    )
  )
    return;
  const patched = await s.send({ method: 'PATCH', path: entityPath(e, 'id'), contentType: PATCH_TYPE, body: [{ op: 'replace', path: `/extension/${prop}`, value: 'second' }] });
  if (!c.status(rt, patched, [200], `PATCH /extension/${prop}`)) return;
  now = await readWithExtension(s, e);
  if (
    !c.check(
      rt,
      same(now.body?.extension, { [prop]: 'second' }),
      `after the PATCH, GET with fields=extension: {${prop}: "second"}`,
      () => now.ex.responseText.slice(0, 300),
      now.ex,
    )
  )
    return;
  const upserted = await s.send({ method: 'PUT', path: KINDS.container.path, body: { ...body, extension: { [prop]: 'third' } } });
  if (!c.status(rt, upserted, [200], 'PUT (upsert) with a new value')) return;
  e.body = { ...body, extension: { [prop]: 'third' } };
  now = await readWithExtension(s, e);
  if (
    !c.check(rt, same(now.body?.extension, { [prop]: 'third' }), `after the upsert, GET with fields=extension: {${prop}: "third"}`, () => now.ex.responseText.slice(0, 300), now.ex)
  )
    return;
  if (typeof now.body?.version === 'number') e.version = now.body.version;

  // Undeclared: 400 on create, upsert and PATCH, and nothing changes.
  const ur = 'custom-properties.undeclared-refused';
  const undeclared = m.freshName('undeclared');
  const before = now.body;
  const newName = m.freshName('c');
  const extension = { [prop]: 'fourth', [undeclared]: 'refused' };
  const post = await s.send({
    method: 'POST',
    path: KINDS.container.path,
    body: { ...createBody(KINDS.container, newName, 'refused by the target', { serviceFqn: service.fqn }), extension },
  });
  s.expectError(ur, post, 400, `POST of a container with an extension value of the undeclared ${undeclared}`);
  const absent = await s.send({ method: 'GET', path: `${KINDS.container.path}/name/${encodeURIComponent(`${service.fqn}.${newName}`)}`, query: { include: 'all' } });
  c.check(ur, absent.status === 404, `the refused POST created nothing: GET ${service.fqn}.${newName} 404`, () => `${absent.status} ${absent.responseText.slice(0, 200)}`, absent);
  const put = await s.send({ method: 'PUT', path: KINDS.container.path, body: { ...e.body, description: 'refused by the target', extension } });
  s.expectError(ur, put, 400, `PUT (upsert) with an extension value of the undeclared ${undeclared}`);
  const patch = await s.send({
    method: 'PATCH',
    path: entityPath(e, 'id'),
    contentType: PATCH_TYPE,
    body: [
      { op: 'replace', path: '/description', value: 'refused by the target' },
      { op: 'add', path: `/extension/${undeclared}`, value: 'refused' },
    ],
  });
  s.expectError(ur, patch, 400, `PATCH adding an extension value of the undeclared ${undeclared}`);
  const after = await readWithExtension(s, e);
  const kept = ['version', 'description', 'extension'] as const;
  c.check(
    ur,
    after.ex.status === 200 && kept.every((f) => same(after.body?.[f], before?.[f])),
    `the refused PUT and PATCH changed nothing: ${kept.map((f) => `${f} ${JSON.stringify(before?.[f])}`).join(', ')}`,
    () => after.ex.responseText.slice(0, 300),
    after.ex,
  );

  // The declared property, a value of the wrong JSON type (a number for a string): 400, and nothing changes.
  const wt = 'custom-properties.wrong-type-refused';
  const typedName = m.freshName('c');
  const typedPost = await s.send({
    method: 'POST',
    path: KINDS.container.path,
    body: { ...createBody(KINDS.container, typedName, 'refused by the target', { serviceFqn: service.fqn }), extension: { [prop]: 42 } },
  });
  s.expectError(wt, typedPost, 400, `POST of a container with ${prop}: 42 (the property is a string)`);
  const typedAbsent = await s.send({ method: 'GET', path: `${KINDS.container.path}/name/${encodeURIComponent(`${service.fqn}.${typedName}`)}`, query: { include: 'all' } });
  c.check(wt, typedAbsent.status === 404, `the refused POST created nothing: GET ${service.fqn}.${typedName} 404`, () => `${typedAbsent.status}`, typedAbsent);
  const typedPatch = await s.send({
    method: 'PATCH',
    path: entityPath(e, 'id'),
    contentType: PATCH_TYPE,
    body: [
      { op: 'replace', path: '/description', value: 'refused by the target' },
      { op: 'replace', path: `/extension/${prop}`, value: 42 },
    ],
  });
  s.expectError(wt, typedPatch, 400, `PATCH of ${prop} to 42 (the property is a string)`);
  const final = await readWithExtension(s, e);
  c.check(
    wt,
    final.ex.status === 200 && kept.every((f) => same(final.body?.[f], before?.[f])),
    `the refused PATCH changed nothing: ${kept.map((f) => `${f} ${JSON.stringify(before?.[f])}`).join(', ')}`,
    () => final.ex.responseText.slice(0, 300),
    final.ex,
  );
}
