/**
 * Search index names (docs/behaviour.md "Search"): one index per kind, named as OpenMetadata names
 * them (`indexMapping.json`: `table_search_index`, alias `table`; `database_schema_search_index`,
 * alias `databaseSchema`), and the aliases that group them. The groups are read from the kinds'
 * rows, so a new kind joins them without a change here:
 *
 * - `dataAsset`: the assets of services (the kinds that are followed and voted on);
 * - `service`: the services (collections under `services/`);
 * - `all`: every kind but the ones that own entities (users and teams, as in OpenMetadata).
 */
import type { Kind } from '../../core/context.ts';

/** `databaseSchema` → `database_schema`. */
const snake = (type: string): string => type.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The index name of a kind (`_index` of its hits). */
export const indexNameOf = (type: string): string => `${snake(type)}_search_index`;

export class IndexNames {
  private readonly byName = new Map<string, readonly string[]>();

  constructor(kinds: readonly Kind[]) {
    const owners = new Set(kinds.flatMap((k) => k.refFields?.owners?.kinds ?? []));
    const groups: Record<string, string[]> = {
      dataasset: kinds.filter((k) => k.votable).map((k) => k.type),
      service: kinds.filter((k) => k.collection.startsWith('services/')).map((k) => k.type),
      all: kinds.filter((k) => !owners.has(k.type)).map((k) => k.type),
    };
    for (const [name, types] of Object.entries(groups)) this.byName.set(name, types);
    for (const { type } of kinds) {
      for (const name of [type, snake(type), indexNameOf(type)]) this.byName.set(name.toLowerCase(), [type]);
    }
  }

  /**
   * The kinds an `index` parameter names: a name or alias, or a comma-separated list of them,
   * case-insensitive. A name the catalog has no kind for names none (an empty index).
   */
  typesOf(index: string): Set<string> {
    const types = new Set<string>();
    for (const name of index.split(',')) for (const type of this.byName.get(name.trim().toLowerCase()) ?? []) types.add(type);
    return types;
  }
}
