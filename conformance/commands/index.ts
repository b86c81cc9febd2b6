/**
 * The command arbitraries and the rules each command can exercise.
 */
import fc from 'fast-check';
import type { Model } from '../model.ts';
import { RULES } from '../rules.ts';
import type { Session } from '../session.ts';
import { BAD_TOKENS, BadTokenCommand, RESTRICTED_OPS, RestrictedCommand } from './auth.ts';
import { CreateCommand, DuplicateCreateCommand } from './create.ts';
import { HardDeleteCommand, RestoreCommand, SoftDeleteCommand } from './delete.ts';
import { INVALID_VARIANTS, InvalidBodyCommand, UNKNOWN_OPS, UnknownIdCommand } from './negative.ts';
import { PATCH_VARIANTS, PatchCommand, VersionsCommand } from './history.ts';
import { INCLUDES, ListCommand } from './list.ts';
import { GetCommand } from './read.ts';
import { FollowCommand, VoteCommand } from './social.ts';
import { BulkUpsertCommand, UpsertCommand, type UpsertVariant } from './upsert.ts';

type Cmd = fc.AsyncCommand<Model, Session>;

interface CommandSpec {
  name: string;
  /** Rules this command checks. */
  rules: readonly string[];
  /** Relative frequency. */
  weight: number;
  arb: fc.Arbitrary<Cmd>;
}

const pos = fc.nat({ max: 63 });

const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: 'create',
    rules: [
      'create.returns-fields',
      'create.fqn-derived',
      'uniqueness.same-name-in-other-scope-allowed',
      'create.fqn-quotes-dotted-names',
      'create.location-names-entity',
      'meaning.href-resolves',
    ],
    weight: 6,
    arb: fc.tuple(pos, pos, fc.boolean(), fc.boolean(), fc.nat({ max: 3 })).map(([k, p, n, r, d]) => new CreateCommand(k, p, n, r, d === 0)),
  },
  {
    name: 'get',
    rules: ['read.get-by-id-and-name-agree', 'soft-delete.hidden-by-default', 'soft-delete.visible-with-include', 'hard-delete.gone-everywhere'],
    weight: 4,
    arb: fc.tuple(pos, fc.boolean()).map(([p, b]) => new GetCommand(p, b)),
  },
  {
    name: 'duplicateCreate',
    rules: [
      'uniqueness.duplicate-post-409-service',
      'uniqueness.duplicate-post-409-child',
      'uniqueness.duplicate-post-409-nested',
      'uniqueness.duplicate-post-409-classification',
      'errors.body-shape',
      'side-effects.rejected-request-changes-nothing',
    ],
    weight: 2,
    arb: pos.map((p) => new DuplicateCreateCommand(p)),
  },
  {
    name: 'upsert',
    rules: ['upsert.creates', 'upsert.updates-in-place', 'upsert.idempotent', 'upsert.never-409', 'upsert.restores-soft-deleted', 'versions.arithmetic'],
    weight: 3,
    arb: fc.tuple(fc.constantFrom<UpsertVariant>('create', 'same', 'change', 'deleted'), pos, pos).map(([v, p, k]) => new UpsertCommand(v, p, k)),
  },
  {
    name: 'bulkUpsert',
    rules: ['bulk.upserts-each', 'versions.arithmetic'],
    weight: 1,
    arb: fc.tuple(pos, pos, fc.nat({ max: 2 }), fc.array(pos, { maxLength: 2 })).map(([k, p, n, e]) => new BulkUpsertCommand(k, p, n, e)),
  },
  {
    name: 'softDelete',
    rules: [
      'soft-delete.marks-deleted',
      'soft-delete.version-rises',
      'delete.non-recursive-parent-400',
      'delete.recursive-cascades',
      'errors.body-shape',
      'side-effects.rejected-request-changes-nothing',
      'versions.arithmetic',
    ],
    weight: 3,
    arb: fc.tuple(pos, fc.boolean(), fc.boolean()).map(([p, n, r]) => new SoftDeleteCommand(p, n, r)),
  },
  {
    name: 'hardDelete',
    rules: [
      'hard-delete.status',
      'hard-delete.gone-everywhere',
      'delete.non-recursive-parent-400',
      'delete.recursive-cascades',
      'errors.body-shape',
      'side-effects.rejected-request-changes-nothing',
    ],
    weight: 2,
    arb: fc.tuple(pos, fc.boolean(), fc.boolean()).map(([p, n, r]) => new HardDeleteCommand(p, n, r)),
  },
  {
    name: 'restore',
    rules: ['restore.reactivates', 'restore.brings-back-children', 'versions.arithmetic'],
    weight: 2,
    arb: pos.map((p) => new RestoreCommand(p)),
  },
  {
    name: 'unknownId',
    rules: ['not-found.unknown-id', 'not-found.unknown-name', 'errors.body-shape', 'side-effects.rejected-request-changes-nothing'],
    weight: 1,
    arb: fc.tuple(fc.constantFrom(...UNKNOWN_OPS), pos, fc.uuid({ version: 4 })).map(([o, k, u]) => new UnknownIdCommand(o, k, u)),
  },
  {
    name: 'invalidBody',
    rules: ['validation.invalid-body-400', 'errors.body-shape', 'side-effects.rejected-request-changes-nothing'],
    weight: 1,
    arb: fc.tuple(fc.constantFrom(...INVALID_VARIANTS), pos, pos, fc.boolean(), fc.boolean()).map(([v, k, p, put, ex]) => new InvalidBodyCommand(v, k, p, put, ex)),
  },
  {
    name: 'badToken',
    rules: ['auth.missing-token-401', 'auth.invalid-token-401', 'errors.body-shape', 'side-effects.rejected-request-changes-nothing'],
    weight: 1,
    arb: fc.tuple(fc.constantFrom(...BAD_TOKENS), fc.boolean(), pos).map(([v, w, p]) => new BadTokenCommand(v, w, p)),
  },
  {
    name: 'restricted',
    rules: ['auth.restricted-token-403', 'errors.body-shape', 'side-effects.rejected-request-changes-nothing'],
    weight: 1,
    arb: fc.tuple(fc.constantFrom(...RESTRICTED_OPS), pos).map(([o, p]) => new RestrictedCommand(o, p)),
  },
  {
    name: 'follow',
    rules: ['followers.consistent'],
    weight: 1,
    arb: fc.tuple(pos, fc.boolean()).map(([p, a]) => new FollowCommand(p, a)),
  },
  {
    name: 'vote',
    rules: ['votes.consistent'],
    weight: 1,
    arb: fc.tuple(pos, fc.constantFrom('votedUp', 'votedDown', 'unVoted') as fc.Arbitrary<'votedUp' | 'votedDown' | 'unVoted'>).map(([p, v]) => new VoteCommand(p, v)),
  },
  {
    name: 'patch',
    rules: ['patch.applies', 'patch.failed-test-applies-nothing', 'versions.arithmetic', 'errors.body-shape', 'side-effects.rejected-request-changes-nothing'],
    weight: 2,
    arb: fc.tuple(fc.constantFrom(...PATCH_VARIANTS), pos, fc.boolean()).map(([v, p, n]) => new PatchCommand(v, p, n)),
  },
  {
    name: 'versions',
    rules: ['versions.history', 'errors.body-shape'],
    weight: 1,
    arb: fc.tuple(pos, pos).map(([p, k]) => new VersionsCommand(p, k)),
  },
  {
    name: 'list',
    rules: ['list.cursor-paging', 'list.include-filter'],
    weight: 1,
    arb: fc.tuple(pos, fc.constantFrom(...INCLUDES), fc.integer({ min: 1, max: 3 })).map(([p, i, l]) => new ListCommand(p, i, l)),
  },
];

/** Every rule some random command can exercise (the rules of every response: all of them). */
export const RANDOM_RULES: ReadonlySet<string> = new Set([...COMMAND_SPECS.flatMap((c) => c.rules), ...RULES.filter((r) => r.everyResponse).map((r) => r.id)]);

/**
 * The command arbitraries, weighted. Deliberately independent of the selected rules: a sequence
 * generated for `--seed S --path P` is the same whatever `--rules` says, so a failure replays.
 */
export function commandArbitraries(): fc.Arbitrary<Cmd>[] {
  const out: fc.Arbitrary<Cmd>[] = [];
  for (const spec of COMMAND_SPECS) for (let i = 0; i < spec.weight; i++) out.push(spec.arb);
  return out;
}
