/**
 * fast-check arbitraries for requests that are invalid in at least one way the server must notice
 * before it changes anything: a malformed path parameter or a missing entity, an
 * out-of-range or malformed query parameter, or a bad body (malformed JSON, wrong content type,
 * deep nesting, wrong types, missing or unknown fields, huge names). Each request says which words
 * the error message may use to name its problem. Values avoid what the validator would coerce
 * (`coerceTypes`: `5` is a fine string, `null` a fine number), since those are not invalid.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../../src/openapi/document.ts';
import type { Operation, Parameter } from './operations.ts';
import { fillPath } from './operations.ts';

export interface FuzzRequest {
  method: string;
  url: string;
  /** Query parameters in order, as pairs (an object would swallow a `__proto__` key). */
  query: [string, string][];
  contentType?: string;
  body?: string;
  defect: string;
  /** The message must contain one of these (case-insensitive), or be a 404 naming a looked-up value. */
  names: string[];
  /** Values the server looks entities up by (path parameters, required query parameters). */
  pathValues: string[];
}

/** Valid values for path parameters (seeded ids and names, so handlers get past their lookups). */
export interface PathPool {
  id: string[];
  fqn: string[];
  userId: string[];
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const hugeString = fc.integer({ min: 257, max: Number(process.env.FUZZ_HUGE ?? 20_000) }).map((n) => 'x'.repeat(n));
const invalidUuid = fc.oneof(
  fc.constantFrom('not-a-uuid', '123', '6f1e0000-0000-4000-8000-00000000000g', "' OR 1=1 --", '..', '%00', '{}', '6F1E0000_0000_4000_8000_000000000000'),
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) && s !== '.' && s !== '..'),
  hugeString.map((s) => s.slice(0, 5000)),
);
/** Values the validator cannot coerce into each JSON type. */
const NOT_A: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.constantFrom({}, [], { a: 1 }, [1, 2]),
  number: fc.constantFrom('abc', {}, [], '1e', 'NaN'),
  integer: fc.constantFrom('abc', {}, [], '1.5x'),
  boolean: fc.constantFrom('maybe', {}, [], 'yes please'),
  array: fc.constantFrom('x', {}, 5, true),
  object: fc.constantFrom('x', 5, [], true),
};

function deep(depth: number, leaf: unknown, asArray: boolean): string {
  return asArray ? `${'['.repeat(depth)}${JSON.stringify(leaf)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`;
}

function pathDefaults(op: Operation, pool: PathPool): fc.Arbitrary<Record<string, string>> {
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    if (p.name === 'fqn') record[p.name] = fc.constantFrom(...pool.fqn);
    else if (p.name === 'userId') record[p.name] = fc.constantFrom(...pool.userId);
    else if (p.name === 'version') record[p.name] = fc.constantFrom('0.1', '9.9');
    else if (p.name === 'timestamp') record[p.name] = fc.constantFrom('0', '1700000000000');
    else if (Array.isArray(p.schema.enum)) record[p.name] = fc.constantFrom(...p.schema.enum.map(String));
    else record[p.name] = fc.constantFrom(...pool.id);
  }
  return fc.record(record);
}

/** Valid values for required query parameters, so that the one defect is the only problem. */
function requiredQuery(op: Operation, pool: PathPool): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters.filter((x) => x.in === 'query' && x.required)) {
    const s = p.schema;
    out[p.name] =
      s.format === 'uuid'
        ? pool.id[0]!
        : Array.isArray(s.enum)
          ? String(s.enum[0])
          : s.type === 'integer' || s.type === 'number'
            ? String(s.minimum ?? 0)
            : s.type === 'boolean'
              ? 'false'
              : p.name === 'entityType'
                ? 'table'
                : 'x';
  }
  return out;
}

function badPathValue(p: Parameter): fc.Arbitrary<{ value: string; names: string[] }> {
  const s = p.schema;
  if (s.format === 'uuid') return invalidUuid.map((value) => ({ value, names: [p.name] }));
  if (typeof s.pattern === 'string') return fc.constantFrom('abc', '1', '1.2.3', '-0.1', 'x.y').map((value) => ({ value, names: [p.name] }));
  if (s.type === 'integer' || s.type === 'number') return fc.constantFrom('abc', '-5', '1.5x').map((value) => ({ value, names: [p.name] }));
  // A name that no entity has: the lookup must answer 404 naming it.
  return fc.string({ maxLength: 30 }).map((tail) => ({ value: `fuzz-missing-${tail}`, names: [`fuzz-missing-`] }));
}

function badQueryValue(p: Parameter): fc.Arbitrary<string> | undefined {
  const s = p.schema;
  if (p.name === 'fields') return fc.constantFrom('noSuchField', '__proto__', 'constructor', 'owners,__proto__', 'toString');
  if (p.name === 'before' || p.name === 'after') {
    return fc.oneof(
      fc.constantFrom('Zm9yZ2Vk', '!!!', '%00', 'AAAA'),
      fc
        .string({ minLength: 1, maxLength: 20 })
        .map((t) => Buffer.from(t.replace(/\0/g, '')).toString('base64url'))
        .filter((c) => c.length > 0),
    );
  }
  if (s.type === 'integer' || s.type === 'number') {
    const options = ['abc', '1.5x', ''];
    if (typeof s.minimum === 'number') options.push(String(s.minimum - 1));
    if (typeof s.maximum === 'number') options.push('1e9', String(s.maximum + 1));
    return fc.constantFrom(...options.filter((o) => o !== ''));
  }
  if (s.type === 'boolean') return fc.constantFrom('maybe', 'yes', '2', 'TRUE!');
  if (Array.isArray(s.enum)) return fc.constantFrom('bogus', '__proto__', '');
  if (s.format === 'uuid') return invalidUuid;
  if (typeof s.maxLength === 'number') return fc.constant('q'.repeat(s.maxLength + 1));
  return undefined;
}

function bodyDefects(op: Operation): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'body' | 'defect' | 'names'>>[] {
  const types = Object.keys(op.body);
  if (types.length === 0) return [];
  const jsonType = types.find((t) => t.includes('json')) ?? 'application/json';
  const schema: JsonSchema = op.body[jsonType] ?? Object.values(op.body)[0]!;
  const top = typeof schema.type === 'string' ? schema.type : 'object';
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required as string[] | undefined) ?? [];
  const closed = schema.unevaluatedProperties === false || schema.additionalProperties === false;
  const bodyNames = ['body', 'JSON', ...required, ...Object.keys(props)];
  const out: fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'body' | 'defect' | 'names'>>[] = [
    fc
      .constantFrom('{', '{"name":', '[1,2', "{'a':1}", 'undefined', '{"a":1}}', '{"a":NaN}', '"unterminated', '[,]')
      .map((body) => ({ contentType: jsonType, body, defect: 'malformed JSON', names: ['JSON'] })),
    fc
      .constantFrom('application/xml', 'application/x-www-form-urlencoded', 'text/html', 'application/octet-stream', 'image/png')
      .filter((t) => !types.includes(t))
      .map((contentType) => ({ contentType, body: '<a>1</a>', defect: 'wrong content type', names: ['media type', 'content-type'] })),
    fc.tuple(fc.integer({ min: 65, max: 10_000 }), fc.boolean()).map(([depth, asArray]) => ({
      contentType: jsonType,
      body: top === 'array' ? `[${deep(depth, 1, asArray)}]` : top === 'object' ? `{"name":"n","description":${deep(depth, 1, asArray)}}` : deep(depth, 'x', asArray),
      defect: 'deep nesting',
      names: ['nested'],
    })),
    (NOT_A[top] ?? NOT_A.object!).map((value) => ({ contentType: jsonType, body: JSON.stringify(value), defect: `body not ${top}`, names: bodyNames })),
  ];
  if (top === 'array')
    out.push(
      fc
        .constantFrom([5], ['x'], [[]], [true])
        .map((value) => ({ contentType: jsonType, body: JSON.stringify(value), defect: 'array items of the wrong type', names: ['must be', ...bodyNames] })),
    );
  const typed = Object.entries(props).filter(([, p]) => typeof p.type === 'string' && NOT_A[p.type as string]);
  if (top === 'object' && typed.length) {
    out.push(
      fc
        .constantFrom(...typed)
        .chain(([name, p]) =>
          NOT_A[p.type as string]!.map((value) => ({ contentType: jsonType, body: JSON.stringify({ [name]: value }), defect: `${name} of the wrong type`, names: bodyNames })),
        ),
    );
  }
  if (top === 'object' && required.length) {
    out.push(
      fc
        .dictionary(fc.constantFrom(...Object.keys(props).filter((k) => !required.includes(k)), 'description'), fc.string({ maxLength: 10 }), { maxKeys: 3 })
        .map((value) => ({ contentType: jsonType, body: JSON.stringify(value), defect: 'required field missing', names: bodyNames })),
    );
  }
  if (top === 'object' && closed) {
    out.push(
      fc.constantFrom(...HOSTILE_KEYS, 'fuzzUnknownField').map((key) => ({
        contentType: jsonType,
        body: `{"name":"fuzz-never-created",${JSON.stringify(key)}:{"polluted":true}}`,
        defect: `unknown field ${key}`,
        names: ['Unrecognized', key, ...bodyNames],
      })),
    );
  }
  if (top === 'object' && props.name) {
    out.push(hugeString.map((name) => ({ contentType: jsonType, body: JSON.stringify({ name }), defect: 'name over 256 characters', names: ['name'] })));
  }
  return out;
}

/** An invalid request for `op`, or undefined when the document gives no way to make one. */
export function invalidRequest(op: Operation, pool: PathPool, validBody?: { type: string; value: unknown }): fc.Arbitrary<FuzzRequest> | undefined {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const defects: fc.Arbitrary<Omit<FuzzRequest, 'method' | 'url' | 'pathValues'> & { path?: [string, string] }>[] = [];
  for (const p of pathParams)
    defects.push(
      badPathValue(p).map(({ value, names }) => ({
        query: [] as [string, string][],
        path: [p.name, value] as [string, string],
        defect: `path ${p.name}=${value.slice(0, 40)}`,
        names,
      })),
    );
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const bad = badQueryValue(p);
    if (bad)
      defects.push(bad.map((value) => ({ query: [[p.name, value]] as [string, string][], defect: `query ${p.name}=${value.slice(0, 40)}`, names: [p.name, 'cursor', 'field'] })));
  }
  for (const body of bodyDefects(op)) defects.push(body.map((b) => ({ ...b, query: [] as [string, string][] })));
  if (defects.length === 0 && op.parameters.length === 0) return undefined;
  if (defects.length === 0) defects.push(fc.constant({ query: [] as [string, string][], defect: 'none the document can express', names: [] }));
  // Noise that must be ignored: undeclared query parameters with hostile names.
  const noise = fc.array(fc.tuple(fc.constantFrom(...HOSTILE_KEYS, 'constructor[prototype][polluted]', '__proto__[polluted]'), fc.constantFrom('1', 'true', 'x')), {
    maxLength: 2,
  });
  return fc.tuple(fc.oneof(...defects), pathDefaults(op, pool), noise).map(([d, values, extra]) => {
    const filled = d.path ? { ...values, [d.path[0]]: d.path[1] } : values;
    const { path: _path, ...rest } = d;
    // A path or query defect comes with a valid body, so that it is the only problem.
    const body = rest.body === undefined && rest.contentType === undefined && validBody ? { contentType: validBody.type, body: JSON.stringify(validBody.value) } : {};
    return {
      ...rest,
      ...body,
      method: op.method,
      url: fillPath(op.path, filled),
      query: [...extra, ...Object.entries(requiredQuery(op, pool)), ...d.query],
      pathValues: [...Object.values(filled), ...Object.values(requiredQuery(op, pool))],
    };
  });
}
