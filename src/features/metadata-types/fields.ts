/**
 * `GET /v1/metadata/types/fields/{entityType}` (OpenMetadata's `SchemaFieldExtractor`, which the web
 * UI's rule and search builders read): the fields of an entity type by name and type, read from the
 * entity's schema in the OpenAPI document — top-level properties, the properties of an object
 * field one level down as `<field>.<child>` — then its custom properties as `extension.<name>`
 * (docs/behaviour.md "Custom properties").
 */
import type { JsonSchema, OpenApiDocument } from '../../openapi/document.ts';
import type { CustomProperty, TypeField } from '../../core/entity-types.ts';

const REF = '#/components/schemas/';

function resolve(doc: OpenApiDocument, schema: JsonSchema): { schema: JsonSchema; name?: string } {
  let name: string | undefined;
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    name = current.$ref.slice(REF.length);
    current = doc.components.schemas[name] ?? {};
  }
  return { schema: current, ...(name !== undefined ? { name } : {}) };
}

/** Every property of a schema, its `allOf` parts included. */
function properties(doc: OpenApiDocument, schema: JsonSchema, out = new Map<string, JsonSchema>()): Map<string, JsonSchema> {
  const { schema: s } = resolve(doc, schema);
  for (const [key, value] of Object.entries((s.properties as Record<string, JsonSchema> | undefined) ?? {})) if (!out.has(key)) out.set(key, value);
  for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) properties(doc, part, out);
  return out;
}

/** A field's type: its schema's name (lower camel), `array<item>`, or its JSON type. */
function typeOf(doc: OpenApiDocument, schema: JsonSchema): string {
  const { schema: s, name } = resolve(doc, schema);
  if (s.type === 'array' && s.items) return `array<${typeOf(doc, s.items as JsonSchema)}>`;
  if (name !== undefined) return `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
  if (typeof s.type === 'string') return s.type;
  return 'object';
}

export function entityFields(doc: OpenApiDocument, schemaName: string, customProperties: readonly CustomProperty[]): TypeField[] {
  const fields: TypeField[] = [];
  for (const [name, schema] of properties(doc, { $ref: `${REF}${schemaName}` })) {
    fields.push({ name, type: typeOf(doc, schema) });
    const { schema: resolved } = resolve(doc, schema);
    if (resolved.type === 'object' || resolved.properties || resolved.allOf) {
      for (const [child, childSchema] of properties(doc, schema)) fields.push({ name: `${name}.${child}`, type: typeOf(doc, childSchema) });
    }
  }
  for (const property of customProperties) fields.push({ name: `extension.${property.name}`, type: property.propertyType.name ?? '' });
  return fields;
}
