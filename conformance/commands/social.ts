import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { describe, sameVersion, type Model, type ModelEntity, type Vote } from '../model.ts';
import { followerIds, readEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import { BaseCommand } from './base.ts';

/** The user ids an add/remove-follower answer shows, by profile; undefined when the shape is wrong. */
function followersInAnswer(s: Session, ex: Exchange, added: boolean): string[] | undefined {
  const body = asObject(ex.json);
  if (s.ctx.exp.socialResponse === 'entity') return followerIds(body);
  const change = asObject(body?.changeDescription);
  const list = asArray(change?.[added ? 'fieldsAdded' : 'fieldsDeleted']);
  const first = asObject(list?.[0]);
  if (!first || first.name !== 'followers') return undefined;
  let value = first[added ? 'newValue' : 'oldValue'];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return asArray(value)?.map((r) => String(asObject(r)?.id));
}

/**
 * Adds (possibly again) or removes the admin user as follower of `e` and checks answer and entity
 * (rule followers.consistent). Shared with the table scenario.
 */
export async function followAndCheck(s: Session, e: ModelEntity, add: boolean): Promise<boolean> {
  const rule = 'followers.consistent';
  const userId = s.ctx.userId;
  if (!userId) {
    s.checker.note(rule, 'not exercised: the target did not tell the user id of the token (GET /v1/users/loggedInUser)');
    return false;
  }
  const c = s.checker;
  const ex = add
    ? await s.send({ method: 'PUT', path: `${e.kind.path}/${e.id}/followers`, body: userId })
    : await s.send({ method: 'DELETE', path: `${e.kind.path}/${e.id}/followers/${userId}` });
  const what = `${add ? 'add' : 'remove'} follower ${userId} ${add ? 'to' : 'from'} ${describe(e)}`;
  if (!c.status(rule, ex, [200], what)) return false;
  const shown = followersInAnswer(s, ex, add);
  const shape = s.ctx.exp.socialResponse === 'entity' ? 'the entity with its followers' : 'a ChangeEvent listing the follower';
  if (add || s.ctx.exp.socialResponse === 'changeEvent') {
    const inAnswer = shown?.includes(userId) ?? false;
    c.check(rule, inAnswer, `${what}: ${shape}`, () => ex.responseText.slice(0, 300), ex);
  } else {
    c.check(rule, shown !== undefined && !shown.includes(userId), `${what}: the entity without the follower`, () => ex.responseText.slice(0, 300), ex);
  }
  const after = await readEntity(s, e, { by: 'id', fields: 'followers' });
  const body = asObject(after.json);
  const ids = followerIds(body) ?? [];
  const count = ids.filter((id) => id === userId).length;
  return c.check(
    rule,
    after.status === 200 && count === (add ? 1 : 0) && sameVersion(body?.version, e.version),
    `GET ${describe(e)}?fields=followers lists the user ${add ? 'once' : 'no more'}, version still ${e.version}`,
    () => `${after.status}, listed ${count} time(s), version ${JSON.stringify(body?.version)}`,
    after,
  );
}

export async function voteAndCheck(s: Session, e: ModelEntity, vote: Vote): Promise<boolean> {
  const rule = 'votes.consistent';
  const c = s.checker;
  const ex = await s.send({ method: 'PUT', path: `${e.kind.path}/${e.id}/vote`, body: { updatedVoteType: vote } });
  if (!c.status(rule, ex, [200], `${vote} on ${describe(e)}`)) return false;
  const after = await readEntity(s, e, { by: 'id', fields: 'votes' });
  const votes = asObject(asObject(after.json)?.votes);
  const up = vote === 'votedUp' ? 1 : 0;
  const down = vote === 'votedDown' ? 1 : 0;
  return c.check(
    rule,
    after.status === 200 && votes?.upVotes === up && votes?.downVotes === down,
    `GET ${describe(e)}?fields=votes: upVotes ${up}, downVotes ${down}`,
    () => `${after.status} votes ${JSON.stringify(votes)}`,
    after,
  );
}

export class FollowCommand extends BaseCommand {
  readonly label = 'follow';
  constructor(
    readonly pos: number,
    readonly add: boolean,
  ) {
    super();
  }
  protected args() {
    return [this.pos, this.add];
  }
  private target(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.kind.followable && e.state === 'active' && (this.add || e.following));
  }
  override check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (!e) return;
    this.resolved = `${this.add ? 'add' : 'remove'} ${describe(e)}${this.add && e.following ? ' (again)' : ''}`;
    if (await followAndCheck(s, e, this.add)) e.following = this.add;
  }
}

export class VoteCommand extends BaseCommand {
  readonly label = 'vote';
  constructor(
    readonly pos: number,
    readonly vote: Vote,
  ) {
    super();
  }
  protected args() {
    return [this.pos, this.vote];
  }
  private target(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.kind.votable && e.state === 'active');
  }
  override check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (!e) return;
    this.resolved = `${this.vote} ${describe(e)}`;
    if (await voteAndCheck(s, e, this.vote)) e.vote = this.vote;
  }
}
