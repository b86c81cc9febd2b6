/**
 * What a response shows of a stored entity (docs/behaviour.md "Reading"): relationship fields only when
 * asked for with `fields=` (GET and list), everything after a write; `href` from the request's base
 * URL; connection secrets masked in the `contract` profile.
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext, Kind } from './context.ts';
import type { Entity } from './entity.ts';
import { referenceTo } from './entity.ts';
import { maskConnection } from './secrets.ts';

/** `all`: every field (write responses); otherwise the relationship fields asked for. */
export type FieldSelection = 'all' | ReadonlySet<string>;

/** Parses `fields=a,b` against what the kind allows: 400 `Invalid field name x`. */
export function parseFields(ctx: CatalogContext, def: Kind, raw: unknown): FieldSelection {
  if (raw === undefined || raw === '') return new Set();
  const names = String(raw)
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (names.includes('*')) return 'all';
  const allowed = new Set([...ctx.validators.propertyNames(def.schema), ...def.relationshipFields]);
  for (const name of names) if (!allowed.has(name)) throw CatalogError.badRequest(`Invalid field name ${name}`);
  return new Set(names);
}

export function render(ctx: CatalogContext, def: Kind, stored: StoredEntity, fields: FieldSelection, baseUrl: string): Entity {
  const source = stored.entity;
  const out: Entity = { ...source };
  const wants = (field: string): boolean => fields === 'all' || fields.has(field);
  for (const field of def.relationshipFields) {
    if (!wants(field)) {
      delete out[field];
      continue;
    }
    const childType = def.childFields?.[field];
    if (childType !== undefined) {
      out[field] = ctx.store
        .children(source.id)
        .filter((c) => c.type === childType && !c.entity.deleted)
        .map((c) => referenceTo(c.type, c.entity));
    } else if (out[field] === undefined) {
      const provided = def.extraFields?.[field]?.(stored, ctx);
      if (provided !== undefined) out[field] = provided;
      else if (def.emptyArrays.includes(field)) out[field] = [];
    }
  }
  if (fields !== 'all') for (const field of def.emptyArrays) if (!def.relationshipFields.includes(field)) out[field] ??= [];
  if (ctx.profile.maskSecrets && out.connection !== undefined) out.connection = maskConnection(out.connection);
  out.href = `${baseUrl}/v1/${def.collection}/${source.id}`;
  return out;
}
