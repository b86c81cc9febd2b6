/**
 * Validation against the document's component schemas outside the request/response pipeline:
 * each item of a bulk request, an entity after a JSON Patch, fixtures and imported state. The
 * functions were compiled at build time (src/openapi/compiled.ts); the active profile's variant of
 * a schema is used where the profile changes it.
 */
import type { ProfileName } from '../config/profiles.ts';
import type { CompiledValidators } from './compiled.ts';
import { componentsOf } from './compiled.ts';
import type { DocumentSource, JsonSchema } from './document.ts';
import type { ErrorDetail } from './validation-details.ts';
import { schemaDetails } from './validation-details.ts';

export interface SchemaValidators {
  /** Validates a value against a component schema of the document; returns the problems found. */
  validate(schemaName: string, value: unknown): ErrorDetail[];
  /** Top-level property names a component schema allows (for `fields=`). */
  propertyNames(schemaName: string): ReadonlySet<string>;
}

export function createSchemaValidators(document: DocumentSource, compiled: CompiledValidators, profile: ProfileName): SchemaValidators {
  const components = componentsOf(compiled.tables.api, profile);
  const names = new Map<string, ReadonlySet<string>>();

  const resolve = (schema: JsonSchema): JsonSchema => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/components/schemas/', '');
    return resolve(document().components.schemas[name] ?? {});
  };
  const collect = (schema: JsonSchema, out: Set<string>): void => {
    const s = resolve(schema);
    for (const key of Object.keys((s.properties as JsonSchema | undefined) ?? {})) out.add(key);
    for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) collect(part, out);
  };

  return {
    validate(schemaName, value) {
      const fn = compiled.responses[components[schemaName] ?? ''];
      if (!fn) throw new Error(`no compiled validator for schema ${schemaName}: is it a component of the document?`);
      return fn(value) ? [] : schemaDetails(fn.errors);
    },
    propertyNames(schemaName) {
      let set = names.get(schemaName);
      if (!set) {
        const out = new Set<string>();
        collect({ $ref: `#/components/schemas/${schemaName}` }, out);
        names.set(schemaName, (set = out));
      }
      return set;
    },
  };
}
