/**
 * Conditional requests and the `fields` contract (docs/behaviour.md "Conditional requests",
 * "Reading"): the ETag of an entity, If-None-Match on reads, If-Match on writes; `fields` names
 * any property of the entity and nothing else.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS } from '../kinds.ts';
import type { Model, ModelEntity } from '../model.ts';
import { createEntity, entityPath } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';
import { makeTable } from './tables.ts';

const etagOf = (ex: Exchange): string | undefined => ex.responseHeaders?.etag;

/** A storage service with one container: followable and votable, patchable, deletable. */
async function makeContainer(s: Session, m: Model): Promise<ModelEntity> {
  const { entity: service } = await createEntity(s, m, KINDS.storageService, null, { checkFqn: false });
  if (!service) throw new SetupError('could not create a storage service');
  const { entity } = await createEntity(s, m, KINDS.container, service, { checkFqn: false });
  if (!entity) throw new SetupError('could not create a container');
  return entity;
}

const PATCH_TYPE = 'application/json-patch+json';

export const conditionalRequests: Scenario = {
  name: 'conditional-requests',
  rules: ['conditional.etag', 'conditional.if-none-match', 'conditional.if-match'],
  async run(s, m) {
    const c = s.checker;
    const contract = s.ctx.profile === 'contract';
    const e = await makeContainer(s, m);
    const byId = entityPath(e, 'id');
    const byName = entityPath(e, 'name');
    const read = (path: string, headers?: Record<string, string>) => s.send({ method: 'GET', path, ...(headers ? { headers } : {}) });
    const patch = (value: string, headers?: Record<string, string>) =>
      s.send({ method: 'PATCH', path: byId, contentType: PATCH_TYPE, body: [{ op: 'add', path: '/description', value }], ...(headers ? { headers } : {}) });

    // The tag: weak, the same by id and by name and from one read to the next.
    const first = await read(byId);
    if (!c.status('conditional.etag', first, [200], 'GET by id')) return;
    const tag = etagOf(first);
    if (!c.check('conditional.etag', typeof tag === 'string' && /^W\/".+"$/.test(tag), 'a weak ETag (W/"...") on GET by id', () => `ETag ${JSON.stringify(tag)}`, first)) return;
    const named = await read(byName);
    c.check('conditional.etag', etagOf(named) === tag, `the same ETag by name (${tag})`, () => `ETag ${JSON.stringify(etagOf(named))}`, named);
    const again = await read(byId);
    c.check('conditional.etag', etagOf(again) === tag, `the same ETag while the entity is unchanged (${tag})`, () => `ETag ${JSON.stringify(etagOf(again))}`, again);

    // If-None-Match: 304 with no body for the current tag, by id and by name.
    for (const path of [byId, byName]) {
      const ex = await read(path, { 'If-None-Match': tag! });
      if (c.status('conditional.if-none-match', ex, [304], `GET ${path === byId ? 'by id' : 'by name'} with If-None-Match of the current ETag`)) {
        c.check('conditional.if-none-match', ex.responseText === '', 'a 304 without a body', () => ex.responseText.slice(0, 200), ex);
      }
    }

    // If-Match: the current tag lets a PATCH through, and the tag changes.
    const patched = await patch('first change', { 'If-Match': tag! });
    if (!c.status('conditional.if-match', patched, [200], 'PATCH with If-Match of the current ETag')) return;
    const version = asObject(patched.json)?.version;
    if (typeof version === 'number') e.version = version;
    const afterPatch = await read(byId);
    const changed = etagOf(afterPatch);
    c.check('conditional.etag', typeof changed === 'string' && changed !== tag, 'a new ETag after a PATCH', () => `ETag ${JSON.stringify(changed)} (before: ${tag})`, afterPatch);
    const stale = await read(byId, { 'If-None-Match': tag! });
    if (c.status('conditional.if-none-match', stale, [200], 'GET with If-None-Match of an older ETag')) {
      c.check('conditional.if-none-match', asObject(stale.json)?.description === 'first change', 'the entity as it is now', () => stale.responseText.slice(0, 200), stale);
    }

    // A stale If-Match: 412, and nothing changes.
    const refused = await patch('lost update', { 'If-Match': tag! });
    s.expectError('conditional.if-match', refused, 412, 'PATCH with If-Match of an older ETag');
    const kept = await read(byId);
    c.check('conditional.if-match', asObject(kept.json)?.description === 'first change', 'the refused PATCH changed nothing', () => kept.responseText.slice(0, 200), kept);
    if (!contract || !changed) return;

    // Profile contract: the tag changes with followers and votes too; PUT and DELETE check If-Match as PATCH does.
    let current = changed;
    if (s.ctx.userId) {
      await s.send({ method: 'PUT', path: `${byId}/followers`, rawBody: JSON.stringify(s.ctx.userId), contentType: 'application/json' });
      const followed = await read(byId);
      c.check(
        'conditional.etag',
        etagOf(followed) !== current,
        'a new ETag after a follower is added',
        () => `ETag ${JSON.stringify(etagOf(followed))} (before: ${current})`,
        followed,
      );
      current = etagOf(followed) ?? current;
    }
    await s.send({ method: 'PUT', path: `${byId}/vote`, body: { updatedVoteType: 'votedUp' } });
    const voted = await read(byId);
    c.check('conditional.etag', etagOf(voted) !== current, 'a new ETag after a vote', () => `ETag ${JSON.stringify(etagOf(voted))} (before: ${current})`, voted);
    const upsert = await s.send({ method: 'PUT', path: KINDS.container.path, body: { ...e.body, description: 'lost update' }, headers: { 'If-Match': tag! } });
    s.expectError('conditional.if-match', upsert, 412, 'PUT (upsert) with If-Match of an older ETag');
    const removal = await s.send({ method: 'DELETE', path: byId, headers: { 'If-Match': tag! } });
    s.expectError('conditional.if-match', removal, 412, 'DELETE with If-Match of an older ETag');
    const still = await read(byId);
    c.check(
      'conditional.if-match',
      asObject(still.json)?.deleted === false && asObject(still.json)?.description === 'first change',
      'the refused PUT and DELETE changed nothing',
      () => still.responseText.slice(0, 200),
      still,
    );
  },
};

/** What a third-party OpenMetadata client asks of tables (docs/behaviour.md "Reading"). */
const TABLE_FIELDS = 'columns,owners,tags,description,tableConstraints,joins';

export const fieldsContract: Scenario = {
  name: 'fields',
  rules: ['fields.schema-properties', 'fields.unknown-400'],
  async run(s, m) {
    const c = s.checker;
    const table = await makeTable(s, m);
    const constraints = [{ constraintType: 'PRIMARY_KEY', columns: ['c1'] }];
    const put = await s.send({ method: 'PUT', path: KINDS.table.path, body: { ...table.body, tableConstraints: constraints } });
    setupOk(put, [200], 'give the table a primary key');
    for (const by of ['id', 'name'] as const) {
      const ex = await s.send({ method: 'GET', path: entityPath(table, by), query: { fields: TABLE_FIELDS } });
      if (!c.status('fields.schema-properties', ex, [200], `GET a table by ${by} with fields=${TABLE_FIELDS}`)) continue;
      const body = asObject(ex.json);
      c.check(
        'fields.schema-properties',
        asArray(body?.columns)?.length === 2 && JSON.stringify(body?.tableConstraints) === JSON.stringify(constraints),
        `the table's columns and tableConstraints ${JSON.stringify(constraints)}`,
        () => ex.responseText.slice(0, 300),
        ex,
      );
    }
    const list = await s.send({ method: 'GET', path: KINDS.table.path, query: { fields: TABLE_FIELDS, databaseSchema: table.parent?.fqn, limit: 10 } });
    c.status('fields.schema-properties', list, [200], `list tables with fields=${TABLE_FIELDS}`);
    for (const name of ['notAProperty', 'columns,noSuchField']) {
      const ex = await s.send({ method: 'GET', path: entityPath(table, 'id'), query: { fields: name } });
      if (s.expectError('fields.unknown-400', ex, 400, `GET with fields=${name}`)) {
        const message = String(asObject(ex.json)?.message ?? '');
        const unknown = name.split(',').pop()!;
        c.check('fields.unknown-400', message.includes(`Invalid field name ${unknown}`), `the message "Invalid field name ${unknown}"`, () => message, ex);
      }
    }
  },
};
