/**
 * Version rules (docs/behaviour.md "Versions"): a new entity is 0.1, a minor
 * change adds 0.1, a major change adds 1.0 (0.2 → 1.2), a request that changes nothing keeps the
 * version. `changeDescription` lists what changed.
 */
import type { ChangeDescription, Entity } from './entity.ts';
import { SYSTEM_FIELDS } from './entity.ts';

export const INITIAL_VERSION = 0.1;

export function nextMinor(version: number): number {
  return Math.round((version + 0.1) * 10) / 10;
}

export function nextMajor(version: number): number {
  return Math.round((version + 1.0) * 10) / 10;
}

/** JSON with object keys sorted, so that equal values always compare equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Equal as JSON values: the same text, or the same once object keys are sorted (most values compare equal on the first test). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || canonicalJson(a) === canonicalJson(b);
}

/** Fields that change without a new version: followers, votes (docs/behaviour.md "Followers and votes"), usage. */
const UNVERSIONED = new Set(['followers', 'votes', 'usageSummary']);

/** OpenMetadata writes structured values as JSON strings in field changes, scalars as they are. */
function changeValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

export function describeChange(before: Entity, after: Entity): ChangeDescription {
  const change: ChangeDescription = { fieldsAdded: [], fieldsUpdated: [], fieldsDeleted: [], previousVersion: before.version };
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if ((SYSTEM_FIELDS.has(key) && key !== 'deleted') || UNVERSIONED.has(key)) continue;
    // Unchanged fields are the same value (a write starts from a shallow copy of the stored entity).
    if (before[key] === after[key]) continue;
    const had = before[key] !== undefined;
    const has = after[key] !== undefined;
    if (!had && has) change.fieldsAdded.push({ name: key, newValue: changeValue(after[key]) });
    else if (had && !has) change.fieldsDeleted.push({ name: key, oldValue: changeValue(before[key]) });
    else if (had && has && !sameJson(before[key], after[key])) {
      change.fieldsUpdated.push({ name: key, oldValue: changeValue(before[key]), newValue: changeValue(after[key]) });
    }
  }
  return change;
}

/** Versions and stamps aside, every field the same JSON value: a write of `after` would change nothing at all. */
export function changesNothing(before: Entity, after: Entity): boolean {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (STAMPS.has(key) || before[key] === after[key]) continue;
    if (before[key] === undefined || after[key] === undefined || !sameJson(before[key], after[key])) return false;
  }
  return true;
}

/** What a write sets whether or not it changes anything else. */
const STAMPS = new Set(['version', 'updatedAt', 'updatedBy']);

export function isEmptyChange(change: ChangeDescription): boolean {
  return change.fieldsAdded.length + change.fieldsUpdated.length + change.fieldsDeleted.length === 0;
}

interface ColumnLike {
  name?: unknown;
  dataType?: unknown;
  arrayDataType?: unknown;
  dataLength?: unknown;
  precision?: unknown;
  scale?: unknown;
}

/** A removed column, a changed type, or a shorter length / precision / scale is major (docs/behaviour.md "Versions"). */
export function columnsChangeIsMajor(before: unknown, after: unknown): boolean {
  const oldCols = Array.isArray(before) ? (before as ColumnLike[]) : [];
  const newCols = new Map((Array.isArray(after) ? (after as ColumnLike[]) : []).map((c) => [c.name, c]));
  return oldCols.some((old) => {
    const now = newCols.get(old.name);
    if (!now) return true;
    if (now.dataType !== old.dataType || now.arrayDataType !== old.arrayDataType) return true;
    const shrank = (k: 'dataLength' | 'precision' | 'scale') => typeof old[k] === 'number' && typeof now[k] === 'number' && (now[k] as number) < (old[k] as number);
    return shrank('dataLength') || shrank('precision') || shrank('scale');
  });
}

/** Is this change major for a kind whose major fields are `majorFields`? */
export function isMajorChange(before: Entity, after: Entity, majorFields: readonly string[]): boolean {
  return majorFields.some((field) => {
    if (field === 'columns') return columnsChangeIsMajor(before.columns, after.columns);
    return before[field] !== undefined && before[field] !== after[field] && !sameJson(before[field], after[field]);
  });
}
