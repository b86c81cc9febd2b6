import type { AuthMode } from '../http.ts';
import { asObject } from '../http.ts';
import { createBody, KINDS } from '../kinds.ts';
import { describe, sameVersion, type Model } from '../model.ts';
import { entityPath, readEntity, tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { expectUnchanged, subtree } from '../side-effects.ts';
import { BaseCommand } from './base.ts';

export type BadToken = 'none' | 'garbage' | 'tampered' | 'algNone' | 'noBearer';
export const BAD_TOKENS: readonly BadToken[] = ['none', 'garbage', 'tampered', 'algNone', 'noBearer'];

const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Builds the Authorization header of a deliberately invalid token from the admin token. */
function badAuth(variant: BadToken, adminToken: string): AuthMode {
  const [header = '', payload = '', signature = ''] = adminToken.split('.');
  let claims: Record<string, unknown> = {};
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    claims = { sub: 'admin' };
  }
  switch (variant) {
    case 'none':
      return 'none';
    case 'garbage':
      return { header: 'Bearer not-a-jwt', label: 'garbage token' };
    case 'tampered': {
      // The admin token with a changed subject: the signature no longer matches. Secret-derived: not printed.
      const forged = `${header}.${b64url(JSON.stringify({ ...claims, sub: 'ck-intruder', roles: ['Admin'] }))}.${signature}`;
      return { header: `Bearer ${forged}`, label: 'Bearer $CK_TOKEN with its sub changed, same signature', secret: true };
    }
    case 'algNone': {
      const unsigned = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify({ ...claims, sub: 'ck-intruder', roles: ['Admin'] }))}.`;
      return { header: `Bearer ${unsigned}`, label: 'alg:none token' };
    }
    case 'noBearer':
      return { header: adminToken, label: '$CK_TOKEN without the Bearer scheme', secret: true };
  }
}

/** A read or a write without a valid token: 401, nothing changed. */
export class BadTokenCommand extends BaseCommand {
  readonly label = 'badToken';
  constructor(
    readonly variant: BadToken,
    readonly write: boolean,
    readonly pos: number,
  ) {
    super();
  }
  protected args() {
    return [this.variant, this.write, this.pos];
  }

  async run(m: Model, s: Session): Promise<void> {
    const rule = this.variant === 'none' ? 'auth.missing-token-401' : 'auth.invalid-token-401';
    const auth = badAuth(this.variant, s.ctx.client.adminToken);
    if (this.write) {
      const kind = KINDS.classification;
      const name = m.freshName(`${tagOf(kind)}u`);
      s.registerRoot(kind, name);
      this.resolved = `POST ${kind.path} ${name} with ${this.variant} token`;
      const ex = await s.send({ method: 'POST', path: kind.path, body: createBody(kind, name, 'must not be stored'), auth });
      s.expectError(rule, ex, 401, `POST ${kind.path} with ${describeToken(this.variant)}`);
      const after = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(name)}`, query: { include: 'all' } });
      s.checker.check(rule, after.status === 404, `${name} was not created`, () => `GET answered ${after.status}`, after);
      await expectUnchanged(s, m, ex, { absent: [{ kind, fqn: name }] });
      return;
    }
    const e = m.pick(this.pos, (x) => x.state === 'active');
    const path = e ? entityPath(e, 'id') : `${KINDS.storageService.path}`;
    this.resolved = `GET ${e ? describe(e) : path} with ${this.variant} token`;
    const ex = await s.send({ method: 'GET', path, query: e ? undefined : { limit: 1 }, auth });
    s.expectError(rule, ex, 401, `GET ${path} with ${describeToken(this.variant)}`);
    if (e) await expectUnchanged(s, m, ex, { entities: [e] });
  }
}

function describeToken(v: BadToken): string {
  return v === 'none' ? 'no Authorization header' : `a ${v} token`;
}

export type RestrictedOp = 'create' | 'delete' | 'upsert';
export const RESTRICTED_OPS: readonly RestrictedOp[] = ['create', 'delete', 'upsert'];

/** A write with a valid token of a user without write permission: 403, nothing changed. */
export class RestrictedCommand extends BaseCommand {
  readonly label = 'restricted';
  constructor(
    readonly op: RestrictedOp,
    readonly pos: number,
  ) {
    super();
  }
  protected args() {
    return [this.op, this.pos];
  }

  async run(m: Model, s: Session): Promise<void> {
    const rule = 'auth.restricted-token-403';
    if (!s.ctx.client.hasRestrictedToken) {
      s.checker.note(rule, 'not exercised: give --restricted-token (a valid token of a user without write permission)');
      return;
    }
    const c = s.checker;
    // Writes that need more than a consumer's rights everywhere: create (POST or PUT of a new
    // name) and delete. Editing a description is not one: OpenMetadata's DataConsumer may do it.
    if (this.op === 'create' || this.op === 'upsert') {
      const kind = this.pos % 2 === 0 ? KINDS.classification : KINDS.storageService;
      const name = m.freshName(`${tagOf(kind)}r`);
      s.registerRoot(kind, name);
      const method = this.op === 'create' ? 'POST' : 'PUT';
      this.resolved = `${method} ${kind.path} ${name}`;
      const ex = await s.send({ method, path: kind.path, body: createBody(kind, name, 'must not be stored'), auth: 'restricted' });
      s.expectError(rule, ex, 403, `${method} ${kind.path} of a new entity with the restricted token`);
      const after = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(name)}`, query: { include: 'all' } });
      c.check(rule, after.status === 404, `${name} was not created`, () => `GET answered ${after.status}`, after);
      await expectUnchanged(s, m, ex, { absent: [{ kind, fqn: name }] });
      return;
    }
    const e = m.pick(this.pos, (x) => x.state === 'active' && m.ancestorsActive(x));
    if (!e) return;
    this.resolved = `${this.op} ${describe(e)}`;
    const ex = await s.send({
      method: 'DELETE',
      path: entityPath(e, 'id'),
      query: { hardDelete: this.pos % 2 === 0 ? true : undefined, recursive: true },
      auth: 'restricted',
    });
    s.expectError(rule, ex, 403, `${ex.method} of ${describe(e)} with the restricted token`);
    await expectUnchanged(s, m, ex, subtree(m, e));
    const after = await readEntity(s, e, { by: 'id' });
    const b = asObject(after.json);
    const ok = c.check(
      rule,
      after.status === 200 && b?.deleted === false && sameVersion(b?.version, e.version),
      `${describe(e)} unchanged (active, version ${e.version})`,
      () => `${after.status} deleted ${JSON.stringify(b?.deleted)} version ${JSON.stringify(b?.version)}`,
      after,
    );
    if (!ok) {
      e.state = 'limbo';
      for (const d of m.descendants(e)) if (d.state !== 'gone') d.state = 'limbo';
    }
  }
}
