import { asObject } from '../http.ts';
import { createBody } from '../kinds.ts';
import { describe, sameVersion, type Model, type ModelEntity } from '../model.ts';
import { expectedFqn, parentFor, serviceOf, tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { expectUnchanged, scopeOf, type Touched } from '../side-effects.ts';
import { BaseCommand, pickKind } from './base.ts';

export type UnknownOp = 'get' | 'delete' | 'hardDelete' | 'restore' | 'follow' | 'vote' | 'unknownFollower' | 'getByName' | 'deleteByName';

export const UNKNOWN_OPS: readonly UnknownOp[] = ['get', 'delete', 'hardDelete', 'restore', 'follow', 'vote', 'unknownFollower', 'getByName', 'deleteByName'];

/** An operation on an id or name that does not exist: 404. */
export class UnknownIdCommand extends BaseCommand {
  readonly label = 'unknownId';
  constructor(
    readonly op: UnknownOp,
    readonly kindIndex: number,
    readonly uuid: string,
  ) {
    super();
  }
  protected args() {
    return [this.op, this.kindIndex, this.uuid];
  }

  async run(m: Model, s: Session): Promise<void> {
    const social = this.op === 'follow' || this.op === 'vote' || this.op === 'unknownFollower';
    const kind = pickKind(s, this.kindIndex, social ? (k) => (this.op === 'vote' ? k.votable : k.followable) : undefined);
    if (!kind) return;
    const id = this.uuid;
    let spec: Parameters<Session['send']>[0];
    let rule = 'not-found.unknown-id';
    switch (this.op) {
      case 'get':
        spec = { method: 'GET', path: `${kind.path}/${id}` };
        break;
      case 'delete':
        spec = { method: 'DELETE', path: `${kind.path}/${id}` };
        break;
      case 'hardDelete':
        spec = { method: 'DELETE', path: `${kind.path}/${id}`, query: { hardDelete: true, recursive: true } };
        break;
      case 'restore':
        spec = { method: 'PUT', path: `${kind.path}/restore`, body: { id } };
        break;
      case 'follow':
        if (!s.ctx.userId) return;
        spec = { method: 'PUT', path: `${kind.path}/${id}/followers`, body: s.ctx.userId };
        break;
      case 'vote':
        spec = { method: 'PUT', path: `${kind.path}/${id}/vote`, body: { updatedVoteType: 'votedUp' } };
        break;
      case 'unknownFollower': {
        const e = m.pick(this.kindIndex, (x) => x.kind.followable && x.state === 'active');
        if (!e) return;
        this.resolved = `unknown user ${id} following ${describe(e)}`;
        spec = { method: 'PUT', path: `${e.kind.path}/${e.id}/followers`, body: id };
        break;
      }
      case 'getByName':
      case 'deleteByName': {
        rule = 'not-found.unknown-name';
        // Inside one of our services when there is one, so the parent exists and only the name is missing.
        const parent = kind.role === 'child' ? m.pick(this.kindIndex, (x) => x.kind.id === kind.serviceKind && x.state === 'active') : undefined;
        const name = `${m.namePrefix}_missing_${id.slice(0, 8)}`;
        const fqn = parent ? `${parent.fqn}.${name}` : name;
        spec = {
          method: this.op === 'getByName' ? 'GET' : 'DELETE',
          path: `${kind.path}/name/${encodeURIComponent(fqn)}`,
        };
        break;
      }
    }
    if (!this.resolved) this.resolved = `${spec.method} ${spec.path}`;
    const ex = await s.send(spec);
    s.expectError(rule, ex, 404, `${spec.method} ${spec.path} (unknown ${rule === 'not-found.unknown-name' ? 'name' : 'id'})`);
    // What it could have touched: the entity a follower was added to, else entities of that kind.
    const followed = this.op === 'unknownFollower' ? m.pick(this.kindIndex, (x) => x.kind.followable && x.state === 'active') : undefined;
    const entities = followed ? [followed] : m.entities.filter((x) => x.kind === kind && x.state !== 'limbo').slice(0, 2);
    await expectUnchanged(s, m, ex, { entities });
  }
}

export type InvalidVariant = 'missingName' | 'missingParentOrType' | 'missingConnection' | 'nameIsObject' | 'notAnObject' | 'malformedJson';

export const INVALID_VARIANTS: readonly InvalidVariant[] = ['missingName', 'missingParentOrType', 'missingConnection', 'nameIsObject', 'notAnObject', 'malformedJson'];

/** POST or PUT with an invalid body: 400, and nothing was created or changed. */
export class InvalidBodyCommand extends BaseCommand {
  readonly label = 'invalidBody';
  constructor(
    readonly variant: InvalidVariant,
    readonly kindIndex: number,
    readonly pos: number,
    readonly put: boolean,
    readonly onExisting: boolean,
  ) {
    super();
  }
  protected args() {
    return [this.variant, this.kindIndex, this.pos, this.put, this.onExisting];
  }

  async run(m: Model, s: Session): Promise<void> {
    const filter =
      this.variant === 'missingConnection'
        ? (k: { role: string }) => k.role === 'service'
        : this.variant === 'missingParentOrType'
          ? (k: { role: string }) => k.role !== 'classification'
          : undefined;
    if (this.variant === 'missingConnection' && !s.ctx.exp.serviceConnectionRequired) return;
    const kind = pickKind(s, this.kindIndex, filter);
    if (!kind) return;
    const rule = 'validation.invalid-body-400';
    // Either an update of an existing entity (PUT, same name) or a new name.
    const existing =
      this.onExisting && this.variant !== 'missingName' && this.variant !== 'nameIsObject'
        ? m.pick(this.pos, (e) => e.kind === kind && e.state === 'active' && m.ancestorsActive(e))
        : undefined;
    let name: string;
    let body: Record<string, unknown>;
    let fqn: string;
    let service: ModelEntity | null = null;
    if (existing) {
      name = existing.name;
      body = { ...existing.body, description: 'must not be stored' };
      fqn = existing.fqn;
    } else {
      const parent = await parentFor(s, m, kind, this.pos, false);
      if (parent === undefined) return;
      name = m.freshName(`${tagOf(kind)}x`);
      service = parent ? serviceOf(parent) : null;
      body = createBody(kind, name, 'must not be stored', service ? { serviceFqn: service.fqn } : undefined);
      fqn = expectedFqn(kind, name, parent);
      if (kind.role !== 'child') s.registerRoot(kind, name);
    }
    let raw: string | undefined;
    switch (this.variant) {
      case 'missingName':
        delete body.name;
        break;
      case 'missingParentOrType':
        if (kind.role === 'service') delete body.serviceType;
        else delete body.service;
        break;
      case 'missingConnection':
        delete body.connection;
        break;
      case 'nameIsObject':
        body.name = { text: name };
        break;
      case 'notAnObject':
        raw = JSON.stringify([name]);
        break;
      case 'malformedJson':
        raw = `{"name": "${name}", "description": `;
        break;
    }
    const method = existing || this.put ? 'PUT' : 'POST';
    this.resolved = `${method} ${kind.path} ${this.variant}${existing ? ` on existing ${describe(existing)}` : ''}`;
    const ex = await s.send({ method, path: kind.path, body: raw === undefined ? body : undefined, rawBody: raw });
    s.expectError(rule, ex, 400, `${method} ${kind.path} with an invalid body (${this.variant})`);
    const named = this.variant !== 'missingName' && this.variant !== 'nameIsObject';
    const touched: Touched = existing
      ? { entities: [existing], scopes: scopeOf(existing) }
      : { absent: named ? [{ kind, fqn }] : [], scopes: service && kind.role === 'child' ? [{ service, kind }] : [] };
    await expectUnchanged(s, m, ex, touched);
    // Nothing changed.
    const after = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(fqn)}`, query: { include: 'all' } });
    if (existing) {
      const b = asObject(after.json);
      const ok = s.checker.check(
        rule,
        after.status === 200 && b?.description === existing.body.description && sameVersion(b?.version, existing.version),
        `${describe(existing)} unchanged (description and version ${existing.version})`,
        () => `${after.status} description ${JSON.stringify(b?.description)} version ${JSON.stringify(b?.version)}`,
        after,
      );
      if (!ok) existing.version = null;
    } else if (this.variant !== 'missingName' && this.variant !== 'nameIsObject') {
      s.checker.check(rule, after.status === 404, `${fqn} was not created`, () => `GET ${fqn} answered ${after.status}`, after);
    }
  }
}
