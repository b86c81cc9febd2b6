/**
 * The kinds a catalog serves, as its context holds them (`ctx.kinds`): looked up by type, in the
 * order they were listed. The server lists src/kinds/index.ts `KINDS`; a test may list more.
 */
import type { Kind, KindRegistry } from '../core/context.ts';

/** The registry of a list of kinds: each type and collection once, exactly one principal kind. */
export function kindRegistry(kinds: readonly Kind[]): KindRegistry {
  const byType = new Map<string, Kind>();
  const collections = new Set<string>();
  for (const kind of kinds) {
    if (byType.has(kind.type)) throw new Error(`kind ${kind.type} is listed twice`);
    if (collections.has(kind.collection)) throw new Error(`kind ${kind.type}: collection ${kind.collection} is taken`);
    byType.set(kind.type, kind);
    collections.add(kind.collection);
  }
  const principals = kinds.filter((k) => k.principal);
  if (principals.length !== 1) throw new Error(`exactly one kind must be the principal, found ${principals.length}`);
  const bySource = new Map(kinds.filter((k) => k.labelSource !== undefined).map((k) => [k.labelSource!, k]));
  return {
    all: kinds,
    principal: principals[0]!,
    of(type) {
      const kind = byType.get(type);
      if (!kind) throw new Error(`no kind ${type}`);
      return kind;
    },
    labelledAs: (source) => bySource.get(source),
  };
}
