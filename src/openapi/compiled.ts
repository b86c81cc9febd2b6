/**
 * The validators compiled from the document at build time (`npm run build:validators`, written by
 * scripts/compile-validators.ts into openapi/generated/validators/): Ajv standalone code for every
 * operation's parameters, request bodies and responses, and for every component schema, plus a
 * table of the operations. This module is the one place that loads them and the contract between
 * the generator and the server: the shapes below are what the generator writes.
 *
 * Nothing is compiled at run time; the three validator modules are loaded with the code cache the
 * build writes (openapi/code-cache.ts), so V8 does not parse them either.
 */
import type { ProfileName } from '../config/profiles.ts';
import { loadCompiledValidators } from './validators-loader.ts';

/** An Ajv validate function as standalone code exports it. */
export interface CompiledFunction {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** One documented operation, as the generator describes it. Names refer to exported functions. */
export interface OperationEntry {
  method: string;
  /** The document's path template: `/v1/containers/{id}` (API) or `/__admin/reset` (Admin API). */
  path: string;
  operationId: string;
  /** The operation's `x-permission`, when it declares one. */
  permission?: string;
  /** Validates `{params, query, headers}`, coercing their values to the declared types. */
  params?: string;
  /** Names of the declared path parameters, in path order. */
  pathParams: string[];
  body?: { required: boolean; content: Record<string, string | null> };
  /**
   * Status (`200`, `4XX`, `default`) → media type → validator name (`null`: no schema). Statuses
   * with the same content share one key, `"400,401,403"`: read them with `responsesOf`.
   */
  responses: Record<string, Record<string, string | null>>;
}

/** What a profile changes in an operation: its parameters, its body, the responses named (by status). */
export type OperationOverride = Partial<Pick<OperationEntry, 'params' | 'body' | 'responses'>>;

/** The operations of one document; the API's differ by profile where the profile overlay does. */
export interface OperationTable {
  operations: OperationEntry[];
  /** Per profile, what differs from `operations` in the entries (by index) it changes. */
  overrides?: Partial<Record<ProfileName, Record<string, OperationOverride>>>;
  /** Per profile, component schema name → validator name (the profile's variant). */
  components: Partial<Record<ProfileName | 'default', Record<string, string>>>;
}

export interface CompiledValidators {
  /** sha256 of openapi/generated/openapi.bundle.json and openapi/admin.yaml when compiled. */
  source: string;
  /** Parameters: coercing validators (a query string's `"10"` becomes `10`). */
  params: Record<string, CompiledFunction>;
  /** Request bodies: never coercing; fill in the document's `default`s as the real server does. */
  requests: Record<string, CompiledFunction>;
  /** Responses and component schemas: neither coercing nor changing the value. */
  responses: Record<string, CompiledFunction>;
  tables: { api: OperationTable; admin: OperationTable };
  /** The Admin API's document (openapi/admin.yaml), read on first use. */
  readonly adminDocument: Record<string, unknown>;
}

let loaded: CompiledValidators | undefined;

/** The compiled validators, loaded on first use (src/openapi/validators-loader.ts). */
export function compiledValidators(): CompiledValidators {
  return (loaded ??= loadCompiledValidators());
}

/** The operations of a document as the given profile serves them. */
export function operationsOf(table: OperationTable, profile: ProfileName): OperationEntry[] {
  const overrides = table.overrides?.[profile];
  if (!overrides) return table.operations;
  return table.operations.map((op, index) => {
    const override = overrides[String(index)];
    if (!override) return op;
    // Merged when the operation is bound: a start binds none (bench: cold start).
    let responses: OperationEntry['responses'] | undefined;
    return {
      ...op,
      ...override,
      get responses() {
        return (responses ??= { ...responsesOf(op), ...responsesOf(override) });
      },
    };
  });
}

/**
 * An operation's responses, one key per status. The generator writes the statuses with the same
 * content as one key (`"400,401,403"`): an operation's ten error statuses name the same schema,
 * and written out one by one they were half of operations.json, parsed at every start (bench: cold start).
 */
export function responsesOf(entry: Pick<OperationEntry, 'responses'> | OperationOverride): OperationEntry['responses'] {
  const responses: OperationEntry['responses'] = {};
  for (const [statuses, content] of Object.entries(entry.responses ?? {})) for (const status of statuses.split(',')) responses[status] = content;
  return responses;
}

/** Component schema name → validator name, for the given profile. */
export function componentsOf(table: OperationTable, profile: ProfileName): Record<string, string> {
  return { ...table.components.default, ...table.components[profile] };
}
