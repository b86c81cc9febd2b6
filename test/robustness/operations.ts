/**
 * The operations of the OpenAPI document, read for tests that must cover every one of them (the
 * fuzz test, the 403 table): method, path template, parameters (path item and operation merged,
 * references resolved), request body content types and schema, `x-permission`.
 */
import type { JsonSchema, OpenApiDocument } from '../../src/openapi/document.ts';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: Method;
  /** Document path, without the `/api` server prefix (`/v1/containers/{id}`). */
  path: string;
  id: string;
  permission: string | undefined;
  parameters: Parameter[];
  /** Content type → schema; empty when the operation takes no body. */
  body: Record<string, JsonSchema>;
}

/** Follows `#/components/...` references (and one level of `allOf`, merged) to a concrete schema. */
export function resolve(doc: OpenApiDocument, node: unknown): JsonSchema {
  let current = node as JsonSchema;
  for (let guard = 0; typeof current?.$ref === 'string' && guard < 20; guard++) {
    // A JSON pointer: `~1` is `/` and `~0` is `~` inside a part (`#/paths/~1v1~1tables/...`).
    const parts = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = parts.reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], doc) as JsonSchema;
  }
  if (!Array.isArray(current?.allOf)) return current ?? {};
  const merged: JsonSchema = { ...current, properties: { ...((current.properties as object) ?? {}) }, required: [...((current.required as string[]) ?? [])] };
  for (const part of (current.allOf as unknown[]).map((p) => resolve(doc, p))) {
    if (part.type && !merged.type) merged.type = part.type;
    Object.assign(merged.properties as object, part.properties ?? {});
    (merged.required as string[]).push(...((part.required as string[]) ?? []));
    if (part.anyOf && !merged.anyOf) merged.anyOf = part.anyOf;
  }
  return merged;
}

export function listOperations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const raw of [...shared, ...((op.parameters as unknown[] | undefined) ?? [])]) {
        const p = resolve(doc, raw) as unknown as Parameter;
        byKey.set(`${p.in}:${p.name}`, { ...p, required: p.required === true, schema: resolve(doc, p.schema) });
      }
      const content = (resolve(doc, op.requestBody).content as Record<string, { schema?: unknown }> | undefined) ?? {};
      out.push({
        method,
        path,
        id: String(op.operationId ?? `${method} ${path}`),
        permission: typeof op['x-permission'] === 'string' ? (op['x-permission'] as string) : undefined,
        parameters: [...byKey.values()],
        body: Object.fromEntries(Object.entries(content).map(([type, media]) => [type, resolve(doc, media.schema)])),
      });
    }
  }
  return out;
}

/** `/v1/containers/{id}` with values → `/api/v1/containers/<encoded id>`. */
export function fillPath(path: string, values: Readonly<Record<string, string>>): string {
  return `/api${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `missing-${name}`))}`;
}
