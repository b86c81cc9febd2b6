/**
 * Running a data contract against the entity in the store (contract "Data contracts": "Validation
 * checks schema compliance, semantics rules, quality expectations and SLA targets; the result
 * holds one block for each"). The result is stored like an added result (data-contracts.ts).
 *
 * - schema: each contract column must be a column of the entity with the same name and data type
 *   (case-insensitive); the others are `failedFields`.
 * - semantics: each enabled rule is JSON Logic over the stored entity (json-logic.ts); a falsy
 *   result, a malformed rule, a rule without text or one over its evaluation budget (its own, or
 *   what the rules before it left of the validation's) is a `failedRules` entry with its reason.
 * - quality: the newest result of each `qualityExpectations` test case: Success passes; Failed,
 *   Aborted, Queued or no result at all fails; `qualityScore` = passed / total × 100.
 * - SLA (the entity's newest table profile is its last refresh): `refreshFrequencyMet` when it is
 *   at most one `refreshFrequency` old; `actualLatency` is its age in seconds and `latencyMet`
 *   when that is at most `maxLatency`; `availabilityMet` when today's (UTC) `availabilityTime` has
 *   not come yet or a refresh happened today before it. No refresh at all: every target is unmet.
 *
 * Status (contract "Data contract execution status"): over the blocks that check something,
 * Success when none failed, Failed when all failed, PartialSuccess otherwise.
 */
import { CatalogError } from '../../core/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { DataContractResult } from './data-contracts.ts';
import { addContractResult } from './data-contracts.ts';
import type { Entity, EntityReference, Schemas } from '../../core/entity.ts';
import { MAX_RULE_STEPS, RuleBudget, RuleError, ruleHolds } from './json-logic.ts';
import { columnsOf, latestTableProfile } from '../table-data/table-data.ts';
import { latestTestCaseResult } from '../data-quality/test-case-results.ts';

type Sla = Schemas['ContractSla'];
type Block = { passed: number; failed: number; total: number };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNIT_MS: Record<string, number> = { minute: 60_000, hour: HOUR, day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };

export function schemaBlock(contract: Entity, target: Entity): Schemas['SchemaValidation'] {
  const expected = (contract.schema as { name: string; dataType: string }[] | undefined) ?? [];
  const actual = new Map(columnsOf(target).map((c) => [c.name, c.dataType.toUpperCase()]));
  const failedFields = expected.filter((c) => actual.get(c.name) !== c.dataType.toUpperCase()).map((c) => c.name);
  return { passed: expected.length - failedFields.length, failed: failedFields.length, total: expected.length, failedFields };
}

/** The evaluation steps all the semantics rules of one validation may take together (docs/behaviour.md "Limits of one request"). */
export const MAX_VALIDATION_STEPS = 1_000_000;

function semanticsBlock(contract: Entity, target: Entity): Schemas['SemanticsValidation'] {
  const rules = ((contract.semantics as Schemas['SemanticsRule'][] | undefined) ?? []).filter((r) => r.enabled !== false);
  const failedRules: { ruleName: string; reason: string }[] = [];
  let left = MAX_VALIDATION_STEPS;
  for (const rule of rules) {
    // Each rule within its own limit and what the rules before it left of the validation's.
    const budget =
      left < MAX_RULE_STEPS
        ? new RuleBudget(left, `The contract's rules need more than ${MAX_VALIDATION_STEPS} evaluation steps together (the limit): this one was stopped`)
        : new RuleBudget(MAX_RULE_STEPS);
    try {
      if (!rule.rule) failedRules.push({ ruleName: rule.name, reason: 'The rule has no expression' });
      else if (!ruleHolds(rule.rule, target, budget)) failedRules.push({ ruleName: rule.name, reason: `The rule ${rule.rule} does not hold for ${target.fullyQualifiedName}` });
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      failedRules.push({ ruleName: rule.name, reason: error.message });
    }
    left = Math.max(0, left - budget.spent);
  }
  return { passed: rules.length - failedRules.length, failed: failedRules.length, total: rules.length, failedRules };
}

function qualityBlock(ctx: CatalogContext, contract: Entity): Schemas['QualityValidation'] {
  const tests = (contract.qualityExpectations as EntityReference[] | undefined) ?? [];
  const passed = tests.filter((t) => latestTestCaseResult(ctx, t.id)?.testCaseStatus === 'Success').length;
  const block: Schemas['QualityValidation'] = { passed, failed: tests.length - passed, total: tests.length };
  if (tests.length > 0) block.qualityScore = Math.round((passed / tests.length) * 10_000) / 100;
  return block;
}

function slaBlock(sla: Sla | undefined, lastRefresh: number | undefined, now: number): { block: Schemas['SlaValidation']; checks: boolean[] } {
  const block: Schemas['SlaValidation'] = {};
  if (!sla) return { block, checks: [] };
  const age = lastRefresh === undefined ? undefined : Math.max(0, now - lastRefresh);
  if (sla.refreshFrequency) block.refreshFrequencyMet = age !== undefined && age <= sla.refreshFrequency.interval * UNIT_MS[sla.refreshFrequency.unit]!;
  if (sla.maxLatency) {
    block.latencyMet = age !== undefined && age <= sla.maxLatency.value * UNIT_MS[sla.maxLatency.unit]!;
    if (age !== undefined) block.actualLatency = Math.round(age / 1000);
  }
  const at = sla.availabilityTime ? /^(\d{1,2}):(\d{2})/.exec(sla.availabilityTime) : null;
  if (at) {
    const startOfDay = now - (now % DAY);
    const deadline = startOfDay + Number(at[1]) * HOUR + Number(at[2]) * 60_000;
    block.availabilityMet = now < deadline || (lastRefresh !== undefined && lastRefresh >= startOfDay && lastRefresh <= deadline);
  }
  const checks = [block.refreshFrequencyMet, block.latencyMet, block.availabilityMet].filter((c): c is boolean => c !== undefined);
  return { block, checks };
}

function statusOf(blocks: Block[]): DataContractResult['contractExecutionStatus'] {
  const checked = blocks.filter((b) => b.total > 0);
  const failed = checked.filter((b) => b.failed > 0).length;
  if (failed === 0) return 'Success';
  return failed === checked.length ? 'Failed' : 'PartialSuccess';
}

/** POST /v1/dataContracts/{id}/validate: validates, stores the result as the latest, returns it. */
export function validateContract(ctx: CatalogContext, contract: StoredEntity, user: string): DataContractResult {
  const started = ctx.now();
  const ref = contract.entity.entity as EntityReference;
  const target = ctx.store.get(ref.id);
  if (!target || target.entity.deleted) throw CatalogError.notFound(ref.type, ref.id);
  const schemaValidation = schemaBlock(contract.entity, target.entity);
  const semanticsValidation = semanticsBlock(contract.entity, target.entity);
  const qualityValidation = qualityBlock(ctx, contract.entity);
  const lastRefresh = target.type === 'table' ? latestTableProfile(ctx, target.entity.id)?.timestamp : undefined;
  const sla = slaBlock(contract.entity.sla as Sla | undefined, lastRefresh, started);
  const slaCounts: Block = { passed: sla.checks.filter(Boolean).length, failed: sla.checks.filter((c) => !c).length, total: sla.checks.length };

  const parts: string[] = [];
  if (schemaValidation.failed) parts.push(`Schema: ${schemaValidation.failed} of ${schemaValidation.total} fields failed (${schemaValidation.failedFields!.join(', ')}).`);
  if (semanticsValidation.failed) parts.push(`Semantics: ${semanticsValidation.failed} of ${semanticsValidation.total} rules failed.`);
  if (qualityValidation.failed) parts.push(`Quality: ${qualityValidation.failed} of ${qualityValidation.total} tests failed.`);
  if (slaCounts.failed) parts.push(`SLA: ${slaCounts.failed} of ${slaCounts.total} targets missed.`);

  const { result } = addContractResult(
    ctx,
    contract,
    {
      timestamp: started,
      contractExecutionStatus: statusOf([schemaValidation as Block, semanticsValidation as Block, qualityValidation as Block, slaCounts]),
      result: parts.length ? parts.join(' ') : 'All checks passed.',
      schemaValidation,
      semanticsValidation,
      qualityValidation,
      slaValidation: sla.block,
      executionTime: Math.max(0, ctx.now() - started),
    },
    user,
  );
  return result;
}
