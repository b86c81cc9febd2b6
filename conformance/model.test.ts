import { describe, expect, it } from 'vitest';
import { Checker, RuleViolation, Tally } from './checker.ts';
import { KINDS } from './kinds.ts';
import { Model, nextVersion, sameVersion, type ModelEntity } from './model.ts';
import { expectedFqn, createdEntityProblems } from './ops.ts';
import { splitReplayPath, joinReplayPath } from './random-phase.ts';
import { RULES } from './rules.ts';

function entity(m: Model, over: Partial<ModelEntity>): ModelEntity {
  return m.add({
    kind: KINDS.container,
    name: 'n',
    fqn: 'n',
    id: String(m.entities.length),
    parent: null,
    root: null,
    state: 'active',
    version: 0.1,
    body: {},
    deletedWith: null,
    following: false,
    vote: 'unVoted',
    ...over,
  });
}

describe('the model', () => {
  it('resolves positions modulo the candidates, so a shrunk sequence stays valid', () => {
    const m = new Model('ck');
    const a = entity(m, { name: 'a' });
    entity(m, { name: 'b', state: 'gone' });
    const c = entity(m, { name: 'c' });
    const active = (e: ModelEntity) => e.state === 'active';
    expect(m.pick(0, active)).toBe(a);
    expect(m.pick(1, active)).toBe(c);
    expect(m.pick(2, active)).toBe(a);
    expect(m.pick(5, (e) => e.name === 'zz')).toBeUndefined();
  });

  it('knows descendants and whether every ancestor is active', () => {
    const m = new Model('ck');
    const svc = entity(m, { kind: KINDS.storageService });
    const c1 = entity(m, { parent: svc });
    const c2 = entity(m, { parent: c1 });
    expect(m.descendants(svc)).toEqual([c1, c2]);
    svc.state = 'deleted';
    expect(m.ancestorsActive(c2)).toBe(false);
    c2.state = 'gone';
    expect(m.existingDescendants(svc)).toEqual([c1]);
  });

  it('gives fresh names under the run prefix', () => {
    const m = new Model('ck_1234');
    expect(m.freshName('c')).toBe('ck_1234_c1');
    expect(m.freshName('ss')).toBe('ck_1234_ss2');
  });

  it('counts versions in tenths, and an unknown version matches anything', () => {
    expect(nextVersion(0.1)).toBe(0.2);
    expect(nextVersion(0.2)).toBe(0.3);
    expect(nextVersion(null)).toBeNull();
    expect(sameVersion(0.30000000000000004, 0.3)).toBe(true);
    expect(sameVersion(undefined, null)).toBe(true);
    expect(sameVersion(undefined, 0.1)).toBe(false);
  });
});

describe('expected entities', () => {
  it('derives fully qualified names, quoting names that contain a dot', () => {
    const m = new Model('ck');
    const svc = entity(m, { kind: KINDS.storageService, fqn: 's3' });
    const parent = entity(m, { fqn: 's3.raw', parent: svc });
    expect(expectedFqn(KINDS.storageService, 's3', null)).toBe('s3');
    expect(expectedFqn(KINDS.container, 'a.b', svc)).toBe('s3."a.b"');
    expect(expectedFqn(KINDS.container, 'day', parent)).toBe('s3.raw.day');
  });

  it('lists what a create answer lacks', () => {
    const sent = { name: 'c1', description: 'd', service: 's' };
    const good = {
      id: '0c1f5e3a-5b2d-4c6e-9f10-3a4b5c6d7e01',
      name: 'c1',
      description: 'd',
      version: 0.1,
      updatedAt: 1,
      updatedBy: 'admin',
      deleted: false,
      owners: [],
      tags: [],
      domains: [],
    };
    expect(createdEntityProblems(good, sent, KINDS.classification, null, true)).toEqual([]);
    const { owners: _o, ...noOwners } = good;
    expect(createdEntityProblems(noOwners, sent, KINDS.classification, null, true)).toEqual(['owners undefined is not an array']);
    expect(createdEntityProblems(noOwners, sent, KINDS.classification, null, false)).toEqual([]);
    expect(createdEntityProblems({ ...good, version: 1 }, sent, KINDS.classification, null, false)).toEqual(['version 1 instead of 0.1']);
  });
});

describe('rule bookkeeping', () => {
  it('records passes, throws for an active rule, and skips inactive rules', () => {
    const tally = new Tally();
    const c = new Checker(new Set(['a.rule']), tally, []);
    expect(c.check('a.rule', true, 'x', () => 'y')).toBe(true);
    expect(() => c.check('a.rule', false, 'x', () => 'y')).toThrow(RuleViolation);
    expect(c.check('other.rule', false, 'x', () => 'y')).toBe(false);
    expect(tally.passes.get('a.rule')).toBe(1);
    expect(tally.passes.has('other.rule')).toBe(false);
  });

  it('carries fast-check path and replayPath in one --path value', () => {
    expect(joinReplayPath('3:1', 'AB:C')).toBe('3:1~AB:C');
    expect(splitReplayPath('3:1~AB:C')).toEqual({ path: '3:1', replayPath: 'AB:C' });
    expect(splitReplayPath('3:1')).toEqual({ path: '3:1' });
  });

  it('has unique rule ids', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
