/**
 * A `csv` hook (src/core/csv-hook.ts) whose rows are the child entities of the scope entity — a
 * service's databases, a database's schemas, a schema's tables — with OpenMetadata's entity
 * columns (`DatabaseServiceRepository`, `DatabaseRepository`, `DatabaseSchemaRepository`:
 * `addEntityToCSV` and `createEntity`; docs/behaviour.md "CSV import and export"). Each kind module
 * says which child kind its rows are, the field naming the parent, and which of the columns it has.
 *
 * A row names its entity by `name` under the scope (`<scope FQN>.<name>`). A name the catalog
 * does not hold creates the entity; a name it holds updates it with a JSON Patch, so the version
 * rules, references and schema checks are the lifecycle's own. A row states every field its
 * columns cover: an empty cell clears that field (an export imported back changes nothing).
 */
import type { Operation } from 'fast-json-patch';
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { CreateRequest, EntityReference, TagLabel } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { checkCreate, createEntity, patchEntity } from '../../core/lifecycle.ts';
import { resolveTagLabels } from '../../core/references.ts';
import { detailsText } from '../../openapi/validation-details.ts';
import { addToFqn } from '../../core/fqn.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import type { LabelCell } from './cells.ts';
import { domainsCell, eachRow, inCurrentOrder, extensionCell, fieldError, labelsCell, ownersCell, readDomains, readExtension, readLabels, readOwners, textOf } from './cells.ts';
import type { CsvCall, CsvColumn, CsvHook } from '../../core/csv-hook.ts';

/** What a row sets on its entity, read cell by cell. */
interface RowFields {
  fields: Record<string, unknown>;
  labels: TagLabel[];
}

/** One entity column: how the entity writes it, and how a cell is read back into the row's fields. */
interface EntityColumn {
  write(entity: StoredEntity['entity']): string;
  read(ctx: CatalogContext, kind: Kind, cell: string, index: number, into: RowFields): void;
}

const text = (field: string): EntityColumn => ({
  write: (entity) => (typeof entity[field] === 'string' ? (entity[field] as string) : ''),
  read: (_ctx, _kind, cell, _index, into) => void (into.fields[field] = textOf(cell)),
});

const labels = (cell: LabelCell): EntityColumn => ({
  write: (entity) => labelsCell(entity.tags, cell),
  read: (ctx, _kind, value, index, into) => void into.labels.push(...readLabels(ctx, value, cell, index)),
});

/** OpenMetadata's entity columns, by header name (`<kind>CsvDocumentation.json`). */
const ENTITY_COLUMNS: Readonly<Record<string, EntityColumn>> = {
  name: { write: (entity) => entity.name, read: () => undefined },
  displayName: text('displayName'),
  description: text('description'),
  owner: {
    write: (entity) => ownersCell(entity.owners),
    read: (ctx, kind, cell, index, into) => void (into.fields.owners = readOwners(ctx, kind, cell, index)),
  },
  tags: labels('tags'),
  glossaryTerms: labels('glossaryTerms'),
  tiers: labels('tiers'),
  // The catalog keeps no certification: the cell is always empty on export and must be on import.
  certification: {
    write: () => '',
    read: (_ctx, _kind, cell, index) => {
      if (cell !== '') throw fieldError(index, 'certification is not kept by this server: leave the cell empty');
    },
  },
  retentionPeriod: text('retentionPeriod'),
  sourceUrl: text('sourceUrl'),
  domains: {
    write: (entity) => domainsCell(entity.domains),
    read: (ctx, kind, cell, index, into) => void (into.fields.domains = readDomains(ctx, kind, cell, index)),
  },
  extension: {
    write: (entity) => extensionCell(entity.extension),
    read: (_ctx, _kind, cell, index, into) => void (into.fields.extension = readExtension(cell, index)),
  },
};

export interface EntityRowsSpec {
  /** The type of the entities the rows are: children of the scope entity. */
  readonly rows: string;
  /** The create-request field of a row's entity that names the scope entity by FQN. */
  readonly parentField: string;
  /** The header names, in order (`name` first, the one required column). */
  readonly columns: readonly string[];
  /** What a new entity gets besides its cells, when its create request needs more (a table's `columns`). */
  readonly created?: Readonly<Record<string, unknown>>;
}

/** The live entity of the call's kind named `name`, or its 404. */
export function scopeOf({ ctx, kind, name }: CsvCall): StoredEntity {
  const stored = ctx.store.getByFqn(kind.type, name);
  if (!stored || stored.entity.deleted) throw CatalogError.notFound(kind.type, name);
  return stored;
}

/** The hook of a kind whose CSV rows are the child entities of type `spec.rows`. */
export function entityRowsCsv(spec: EntityRowsSpec): CsvHook {
  const columns: CsvColumn[] = spec.columns.map((name) => {
    if (!ENTITY_COLUMNS[name]) throw new Error(`CSV column ${name} is not an entity column (${Object.keys(ENTITY_COLUMNS).join(', ')})`);
    return name === 'name' ? { name, required: true } : { name };
  });
  const codecs = spec.columns.map((name) => ENTITY_COLUMNS[name]!);
  const nameAt = spec.columns.indexOf('name');
  if (nameAt === -1) throw new Error('an entity CSV needs a name column');
  const hasLabels = spec.columns.some((name) => name === 'tags' || name === 'glossaryTerms' || name === 'tiers');

  return {
    columns,
    rowsStandAlone: true,
    check: (call) => void scopeOf(call),
    exportRows(call) {
      const scope = scopeOf(call);
      return call.ctx.store
        .children(scope.entity.id)
        .filter((child) => child.type === spec.rows && !child.entity.deleted)
        .sort((a, b) => (a.entity.fullyQualifiedName < b.entity.fullyQualifiedName ? -1 : 1))
        .map((child) => codecs.map((codec) => codec.write(child.entity)));
    },
    importRows(call, rows) {
      const { ctx, user, checkOnly } = call;
      const scope = scopeOf(call);
      const kind = ctx.kinds.of(spec.rows);
      return eachRow(rows, (row) => {
        const into: RowFields = { fields: {}, labels: [] };
        codecs.forEach((codec, i) => codec.read(ctx, kind, row.cells[i]!, i, into));
        // The label cells together, as the lifecycle checks them: a second tier is refused here.
        if (hasLabels) into.fields.tags = resolveTagLabels(ctx, into.labels);
        return writeRow(ctx, kind, spec, scope, row.cells[nameAt]!, into.fields, user, checkOnly);
      });
    },
  };
}

/** Creates the row's entity, or updates the one of that name under the scope; true when it created one. */
function writeRow(
  ctx: CatalogContext,
  kind: Kind,
  spec: EntityRowsSpec,
  scope: StoredEntity,
  name: string,
  fields: Record<string, unknown>,
  user: string,
  checkOnly = false,
): boolean {
  const request: CreateRequest = { name, [spec.parentField]: scope.entity.fullyQualifiedName, ...structuredClone(spec.created ?? {}) };
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    // A reference field the create request names by FQN (`domains`) gets the FQNs.
    request[field] = kind.refFields?.[field]?.by === 'fqn' ? (value as EntityReference[]).map((ref) => ref.fullyQualifiedName) : value;
  }
  return writeEntity(ctx, kind, addToFqn(scope.entity.fullyQualifiedName, name), request, fields, user, checkOnly);
}

/**
 * Writes one row's entity: when the catalog holds none of that kind and FQN, creates it from
 * `request` (checked against the kind's create schema, as the API checks a POST); else sets each
 * of `fields` on it by a JSON Patch, and removes those that are undefined (an empty cell), an
 * array the kind always has becoming empty. True when it created the entity. With `checkOnly`,
 * everything the write checks and nothing stored (src/core/csv-hook.ts `CsvCall.checkOnly`).
 */
export function writeEntity(ctx: CatalogContext, kind: Kind, fqn: string, request: CreateRequest, fields: Record<string, unknown>, user: string, checkOnly = false): boolean {
  const existing = ctx.store.getByFqn(kind.type, fqn);
  if (existing?.entity.deleted) throw CatalogError.badRequest(`${kind.type} ${fqn} is deleted: restore it before importing it`);
  if (!existing) {
    const problems = ctx.validators.validate(kind.createSchema, request);
    if (problems.length) throw CatalogError.badRequest(`Invalid ${kind.type}: ${detailsText(problems)}`, problems);
    if (checkOnly) checkCreate(ctx, kind, request, user);
    else createEntity(ctx, kind, request, user);
    return true;
  }
  if (Array.isArray(fields.tags)) fields.tags = inCurrentOrder(existing.entity.tags, fields.tags as TagLabel[]);
  const operations: Operation[] = [];
  for (const [field, value] of Object.entries(fields)) {
    const path = `/${field}`;
    if (value !== undefined) operations.push({ op: 'add', path, value });
    else if (kind.emptyArrays.includes(field)) operations.push({ op: 'add', path, value: [] });
    else if (existing.entity[field] !== undefined) operations.push({ op: 'remove', path });
  }
  patchEntity(ctx, kind, existing, operations, user, checkOnly);
  return false;
}
