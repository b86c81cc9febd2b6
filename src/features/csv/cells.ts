/**
 * The cells CSVs share, as OpenMetadata's `CsvUtil` and `EntityCsv` write and read them
 * (docs/behaviour.md "CSV import and export"): lists separated by `;`, owners as `user:<name>` or
 * `team:<name>`, tag labels by FQN (classification tags, glossary terms and tiers in their own
 * cells), domains by FQN, custom properties as `<name>:<value>` pairs. A cell that names something
 * the catalog does not hold fails its row with OpenMetadata's `#INVALID_FIELD: Field <n> error - …`.
 */
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { EntityReference, TagLabel } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { resolveTagLabels } from '../../core/references.ts';
import { quoteName } from '../../core/fqn.ts';
import type { CsvRow, RowOutcome } from '../../core/csv-hook.ts';

/** Separates the items of a list cell (`CsvUtil.FIELD_SEPARATOR`). */
const SEPARATOR = ';';
/** Separates an owner's type from its name, and a custom property's name from its value. */
const PAIR = ':';
/** The classification whose tags are tiers: they have a cell of their own. */
const TIER_PREFIX = 'Tier.';

/** A row that fails on one of its cells: OpenMetadata's `EntityCsv.invalidField` text. */
export function fieldError(index: number, why: string): CatalogError {
  return CatalogError.badRequest(`#INVALID_FIELD: Field ${index + 1} error - ${why}`);
}

/** The items of a list cell: split on `;` outside double quotes (a quoted FQN part may hold one), blanks dropped. */
export function splitList(cell: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of cell) {
    if (ch === '"') quoted = !quoted;
    if (ch === SEPARATOR && !quoted) {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

export const joinList = (items: readonly string[]): string => items.join(SEPARATOR);

/** A text cell: empty means no value. */
export const textOf = (cell: string): string | undefined => (cell === '' ? undefined : cell);

/** Writes each row with `write` (true: it created an entity); a refused row is an outcome with the reason. */
export function eachRow(rows: readonly CsvRow[], write: (row: CsvRow) => boolean): RowOutcome[] {
  return rows.map((row) => {
    try {
      return { created: write(row) };
    } catch (error) {
      if (error instanceof CatalogError) return { error: error.message };
      throw error;
    }
  });
}

// Owners: `user:alice;team:Sales`.

export function ownersCell(owners: unknown): string {
  return joinList(((owners as EntityReference[] | undefined) ?? []).map((ref) => `${ref.type}${PAIR}${ref.name ?? ref.id}`));
}

/** The owners a cell names, each a live user or team (the kinds the row kind's `owners` accepts). */
export function readOwners(ctx: CatalogContext, kind: Kind, cell: string, index: number): EntityReference[] | undefined {
  const items = splitList(cell);
  if (!items.length) return undefined;
  const kinds = kind.refFields?.owners?.kinds ?? [];
  return items.map((item) => {
    const at = item.indexOf(PAIR);
    const type = item.slice(0, at);
    const name = item.slice(at + 1);
    if (at <= 0 || name === '' || !kinds.includes(type)) throw fieldError(index, `Owner should be of format ${kinds.map((k) => `${k}:${k}Name`).join(' or ')}`);
    const found = ctx.store.getByFqn(type, name.includes('"') ? name : quoteName(name));
    if (!found || found.entity.deleted) throw fieldError(index, `Entity ${name} of type ${type} not found`);
    return { id: found.entity.id, type };
  });
}

// Tag labels: the `tags`, `glossaryTerms` and `tiers` cells of one `tags` list.

/**
 * Which labels a cell holds: glossary terms; tiers (the tags of the `Tier` classification); the other
 * classification tags (`tags`, beside a `tiers` cell); or every classification tag (`allTags`:
 * a CSV without a tiers cell, such as a table's columns).
 */
export type LabelCell = 'tags' | 'glossaryTerms' | 'tiers' | 'allTags';

const sourceOf = (cell: LabelCell): string => (cell === 'glossaryTerms' ? 'Glossary' : 'Classification');

function inCell(label: TagLabel, cell: LabelCell): boolean {
  const source = label.source ?? 'Classification';
  if (cell === 'glossaryTerms') return source === 'Glossary';
  if (source !== 'Classification') return false;
  return cell === 'allTags' || label.tagFQN.startsWith(TIER_PREFIX) === (cell === 'tiers');
}

export function labelsCell(tags: unknown, cell: LabelCell): string {
  return joinList(((tags as TagLabel[] | undefined) ?? []).filter((label) => inCell(label, cell)).map((label) => label.tagFQN));
}

/** The labels a cell names, each checked as the lifecycle checks a label (a live tag, a glossary term...). */
export function readLabels(ctx: CatalogContext, cell: string, kind: LabelCell, index: number): TagLabel[] {
  return splitList(cell).map((tagFQN) => {
    const label: TagLabel = { tagFQN, source: sourceOf(kind) as TagLabel['source'], labelType: 'Manual', state: 'Confirmed' };
    try {
      resolveTagLabels(ctx, [label]);
    } catch (error) {
      if (error instanceof CatalogError) throw fieldError(index, error.message);
      throw error;
    }
    return label;
  });
}

/**
 * The labels in the order the entity already has them, new ones after: the cells split one list in
 * three, and an export imported back must not read as a change.
 */
export function inCurrentOrder(current: unknown, next: readonly TagLabel[]): TagLabel[] {
  const order = ((current as TagLabel[] | undefined) ?? []).map((label) => label.tagFQN);
  const rank = (label: TagLabel): number => {
    const at = order.indexOf(label.tagFQN);
    return at === -1 ? order.length : at;
  };
  return [...next].sort((a, b) => rank(a) - rank(b));
}

// Domains: FQNs.

export function domainsCell(domains: unknown): string {
  return joinList(((domains as EntityReference[] | undefined) ?? []).map((ref) => ref.fullyQualifiedName ?? ref.name ?? ref.id));
}

/** The domains a cell names, each live (the kinds the row kind's `domains` accepts). */
export function readDomains(ctx: CatalogContext, kind: Kind, cell: string, index: number): EntityReference[] | undefined {
  const items = splitList(cell);
  if (!items.length) return undefined;
  const kinds = kind.refFields?.domains?.kinds ?? [];
  return items.map((fqn) => {
    for (const type of kinds) {
      const found = ctx.store.getByFqn(type, fqn);
      if (found && !found.entity.deleted) return referenceTo(found.type, found.entity);
    }
    throw fieldError(index, `Entity ${fqn} of type ${kinds.join(' or ')} not found`);
  });
}

// Custom properties: `name:value;name:value`. A value that is not text is written as JSON and read back from it.

/** True when `text` would be read back as something other than itself (JSON of a number, a list, a quoted string...). */
function needsJson(text: string): boolean {
  if (text.includes(SEPARATOR) || text.startsWith('"')) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function extensionCell(extension: unknown): string {
  if (extension === null || typeof extension !== 'object') return '';
  return joinList(
    Object.entries(extension as Record<string, unknown>).map(([name, value]) => {
      const text = typeof value === 'string' && !needsJson(value) ? value : JSON.stringify(value);
      return `${name}${PAIR}${text}`;
    }),
  );
}

export function readExtension(cell: string, index: number): Record<string, unknown> | undefined {
  const items = splitList(cell);
  if (!items.length) return undefined;
  const extension: Record<string, unknown> = {};
  for (const item of items) {
    const at = item.indexOf(PAIR);
    const name = at === -1 ? item : item.slice(0, at);
    const text = at === -1 ? '' : item.slice(at + 1);
    if (name === '' || text === '') {
      throw fieldError(
        index,
        `Invalid key-value pair in extension string: Key = ${name}, Value = ${at === -1 ? 'null' : text} . Extensions should be of format customPropertyName:customPropertyValue`,
      );
    }
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // Plain text.
    }
    extension[name] = value;
  }
  return extension;
}
