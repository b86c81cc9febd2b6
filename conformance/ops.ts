/**
 * Operations shared by commands and scenarios: create an entity (with the create rules checked),
 * find or make a parent, read an entity.
 */
import type { Exchange } from './http.ts';
import { asArray, asObject } from './http.ts';
import { createBody, KINDS, quoteName, type Kind } from './kinds.ts';
import { checkHrefs, checkLocation } from './meaning.ts';
import type { Model, ModelEntity } from './model.ts';
import type { Session } from './session.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function expectedFqn(kind: Kind, name: string, parent: ModelEntity | null): string {
  if (kind.role !== 'child' || !parent) return quoteName(name);
  return `${parent.fqn}.${quoteName(name)}`;
}

export function serviceOf(e: ModelEntity): ModelEntity | null {
  let p: ModelEntity | null = e;
  while (p && p.kind.role === 'child') p = p.parent;
  return p;
}

/** What is wrong with a freshly created entity, compared with what was sent (contract "Create", rule 1). */
export function createdEntityProblems(
  body: Record<string, unknown> | undefined,
  sent: Record<string, unknown>,
  kind: Kind,
  service: ModelEntity | null,
  arraysRequired: boolean,
): string[] {
  if (!body) return ['the body is not a JSON object'];
  const p: string[] = [];
  if (typeof body.id !== 'string' || !UUID_RE.test(body.id)) p.push(`id ${JSON.stringify(body.id)} is not a UUID`);
  if (body.name !== sent.name) p.push(`name ${JSON.stringify(body.name)} instead of ${JSON.stringify(sent.name)}`);
  if (body.version !== 0.1) p.push(`version ${JSON.stringify(body.version)} instead of 0.1`);
  if (!Number.isInteger(body.updatedAt)) p.push(`updatedAt ${JSON.stringify(body.updatedAt)} is not epoch ms`);
  if (typeof body.updatedBy !== 'string' || body.updatedBy === '') p.push('updatedBy missing');
  if (body.deleted !== false) p.push(`deleted ${JSON.stringify(body.deleted)} instead of false`);
  if (sent.description !== undefined && body.description !== sent.description) {
    p.push(`description ${JSON.stringify(body.description)} instead of ${JSON.stringify(sent.description)}`);
  }
  if (kind.role === 'service' && body.serviceType !== sent.serviceType) {
    p.push(`serviceType ${JSON.stringify(body.serviceType)} instead of ${JSON.stringify(sent.serviceType)}`);
  }
  if (kind.role === 'child' && service) {
    const ref = asObject(body.service);
    if (!ref) p.push('no service reference');
    else {
      if (ref.name !== service.name && ref.fullyQualifiedName !== service.fqn) {
        p.push(`service reference names ${JSON.stringify(ref.name)} instead of ${service.name}`);
      }
      if (ref.type !== service.kind.id) p.push(`service reference type ${JSON.stringify(ref.type)} instead of ${service.kind.id}`);
      if (ref.id !== service.id) p.push(`service reference id ${JSON.stringify(ref.id)} instead of ${service.id}`);
    }
  }
  // A classification has no tags or domains (interface specification, "Classification": its fields).
  for (const field of kind.role === 'classification' ? ['owners'] : ['owners', 'tags', 'domains']) {
    const v = body[field];
    if (v === undefined && !arraysRequired) continue;
    if (!Array.isArray(v)) p.push(`${field} ${JSON.stringify(v)} is not an array`);
    else if (v.length !== 0) p.push(`${field} is not empty`);
  }
  return p;
}

export interface CreateOptions {
  name?: string;
  method?: 'POST' | 'PUT';
  /** The rule the status and fields are checked under (create.returns-fields for POST). */
  rule?: string;
  /** Check the FQN under create.fqn-derived (default true). */
  checkFqn?: boolean;
  description?: string;
  /** The create body to send, when the kind's usual one (conformance/kinds.ts createBody) does not fit. */
  body?: Record<string, unknown>;
  /** Take the fully qualified name from the answer (kinds whose FQN the suite does not derive). */
  fqnFromAnswer?: boolean;
}

/**
 * Creates an entity (POST by default) under `parent` and adds it to the model when the target
 * created it. Returns undefined when the create failed and the rule is not active.
 */
export async function createEntity(s: Session, model: Model, kind: Kind, parent: ModelEntity | null, opts: CreateOptions = {}): Promise<{ entity?: ModelEntity; ex: Exchange }> {
  const name = opts.name ?? (typeof opts.body?.name === 'string' ? opts.body.name : model.freshName(tagOf(kind)));
  const method = opts.method ?? 'POST';
  const rule = opts.rule ?? 'create.returns-fields';
  const service = parent ? (parent.kind.role === 'child' ? serviceOf(parent) : parent) : null;
  const body =
    opts.body ??
    createBody(
      kind,
      name,
      opts.description ?? `created by catalog-kit conform (${kind.id})`,
      service ? { serviceFqn: service.fqn, container: parent && parent.kind.role === 'child' ? { id: parent.id } : undefined } : undefined,
    );
  if (kind.role !== 'child') s.registerRoot(kind, name);
  const ex = await s.send({ method, path: kind.path, body });
  const statuses = method === 'POST' ? s.ctx.exp.createStatuses : s.ctx.exp.upsertCreateStatuses;
  const what = `${method} ${kind.path} of a new ${kind.id}`;
  if (method === 'PUT' && s.checker.isActive('upsert.never-409') && ex.status === 409) {
    s.checker.check('upsert.never-409', false, `${what}: not 409`, () => `409 ${ex.responseText}`, ex);
  }
  if (!s.checker.status(rule, ex, statuses, what)) return { ex };
  const got = asObject(ex.json);
  const problems = createdEntityProblems(got, body, kind, service, s.ctx.exp.emptyArraysRequired);
  if (!s.checker.check(rule, problems.length === 0, `${what}: the created entity`, () => problems.join('; '), ex)) {
    if (typeof got?.id !== 'string') return { ex };
  }
  const fqn = opts.fqnFromAnswer && typeof got?.fullyQualifiedName === 'string' ? got.fullyQualifiedName : expectedFqn(kind, name, parent);
  if (opts.checkFqn !== false) {
    s.checker.check('create.fqn-derived', got?.fullyQualifiedName === fqn, `fullyQualifiedName ${fqn}`, () => `fullyQualifiedName ${JSON.stringify(got?.fullyQualifiedName)}`, ex);
    if (fqn.includes('"')) await checkQuotedFqn(s, kind, fqn, got, ex);
  }
  if (got) {
    checkLocation(s, ex, kind, got, what);
    await checkHrefs(s, got, what, ex);
  }
  const id = String(got?.id);
  if (kind.role !== 'child') s.registerRoot(kind, name, id);
  const entity = model.add({
    kind,
    name,
    fqn,
    id,
    parent,
    root: service ?? null,
    state: 'active',
    version: 0.1,
    body,
    deletedWith: null,
    following: false,
    vote: 'unVoted',
  });
  if (!entity.root) entity.root = entity;
  return { entity, ex };
}

/** A name with a dot (its own or an ancestor's) is quoted in the FQN, and GET finds the entity by that FQN. */
async function checkQuotedFqn(s: Session, kind: Kind, fqn: string, got: Record<string, unknown> | undefined, ex: Exchange): Promise<void> {
  const rule = 'create.fqn-quotes-dotted-names';
  const ok = s.checker.check(
    rule,
    got?.fullyQualifiedName === fqn,
    `fullyQualifiedName ${fqn} (names with a dot quoted)`,
    () => `fullyQualifiedName ${JSON.stringify(got?.fullyQualifiedName)}`,
    ex,
  );
  if (!ok || !s.checker.isActive(rule)) return;
  const read = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(fqn)}` });
  s.checker.check(
    rule,
    read.status === 200 && asObject(read.json)?.id === got?.id,
    `GET ${kind.path}/name/${encodeURIComponent(fqn)} finds ${String(got?.id)}`,
    () => `${read.status} ${read.responseText.slice(0, 200)}`,
    read,
  );
}

export function tagOf(kind: Kind): string {
  const tags: Record<string, string> = {
    storageService: 'ss',
    mlmodelService: 'ms',
    dashboardService: 'ds',
    databaseService: 'dbs',
    messagingService: 'msg',
    pipelineService: 'ps',
    apiService: 'as',
    classification: 'cl',
    container: 'c',
    dashboard: 'd',
    database: 'db',
    chart: 'ch',
    mlmodel: 'ml',
    topic: 't',
    pipeline: 'p',
    apiCollection: 'ac',
    databaseSchema: 'sch',
    table: 'tbl',
    dataContract: 'dc',
  };
  return tags[kind.id] ?? 'e';
}

/**
 * The parent for a new entity of `kind`: an active service of the right kind (or an active
 * container when nesting), picked by position; creates a service when there is none.
 */
export async function parentFor(s: Session, model: Model, kind: Kind, position: number, nest: boolean): Promise<ModelEntity | null | undefined> {
  if (kind.role !== 'child' || !kind.serviceKind) return null;
  if (nest && kind.nestable) {
    const container = model.pick(position, (e) => e.kind.id === kind.id && e.state === 'active' && model.ancestorsActive(e));
    if (container) return container;
  }
  const serviceKind = KINDS[kind.serviceKind];
  const existing = model.pick(position, (e) => e.kind === serviceKind && e.state === 'active');
  if (existing) return existing;
  const { entity } = await createEntity(s, model, serviceKind, null);
  return entity;
}

export interface ReadOptions {
  by: 'id' | 'name';
  include?: 'deleted' | 'all';
  fields?: string;
}

export function entityPath(e: ModelEntity, by: 'id' | 'name'): string {
  return by === 'id' ? `${e.kind.path}/${e.id}` : `${e.kind.path}/name/${encodeURIComponent(e.fqn)}`;
}

export async function readEntity(s: Session, e: ModelEntity, opts: ReadOptions): Promise<Exchange> {
  return s.send({
    method: 'GET',
    path: entityPath(e, opts.by),
    query: { include: opts.include, fields: opts.fields },
  });
}

/** The follower list of an entity body, as ids. */
export function followerIds(body: Record<string, unknown> | undefined): string[] | undefined {
  const list = asArray(body?.followers);
  if (!list) return undefined;
  return list.map((f) => String(asObject(f)?.id));
}
