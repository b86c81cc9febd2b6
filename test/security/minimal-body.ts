/**
 * The smallest body a schema accepts (required properties only, first enum value, minimums), so a
 * request passes validation and reaches authorisation (the pipeline authorises after validating).
 */
import type { JsonSchema, OpenApiDocument } from '../../src/openapi/document.ts';
import { resolve } from '../robustness/operations.ts';

const UUID = '6f1e0000-0000-4000-8000-0000000000f0';
/** Values for the few patterned strings of the document (entity links, versions). */
const PATTERN_VALUES = ['<#E::table::svc.db.sch.t>', '0.1', 'P1D', 'x'];

function minimalValue(doc: OpenApiDocument, raw: unknown, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 12) return {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  const first = alternatives?.length ? resolve(doc, alternatives[0]) : undefined;
  if (first && !schema.type && !schema.properties) return minimalValue(doc, first, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return UUID;
      if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (schema.format === 'email') return 'x@example.com';
      if (schema.format === 'uri') return 'http://127.0.0.1/x';
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test('x'))
        return PATTERN_VALUES.find((v) => new RegExp(schema.pattern as string, 'u').test(v)) ?? 'x';
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array': {
      const count = Number(schema.minItems ?? 0);
      return Array.from({ length: count }, () => minimalValue(doc, schema.items, depth + 1));
    }
    default: {
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const required = [...((schema.required as string[] | undefined) ?? []), ...((first?.required as string[] | undefined) ?? [])];
      const altProps = (first?.properties ?? {}) as Record<string, unknown>;
      for (const name of required) out[name] = minimalValue(doc, props[name] ?? altProps[name] ?? {}, depth + 1);
      return out;
    }
  }
}

export function minimalBody(doc: OpenApiDocument, body: Record<string, JsonSchema>): { type: string; value: unknown } | undefined {
  const type = Object.keys(body).find((t) => t.includes('json')) ?? Object.keys(body)[0];
  if (!type) return undefined;
  return { type, value: minimalValue(doc, body[type]) };
}
