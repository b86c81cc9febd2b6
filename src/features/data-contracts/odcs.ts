/**
 * Data contracts in the Open Data Contract Standard v3 (docs/behaviour.md "Data contracts";
 * OpenMetadata's `DataContractResource` ODCS endpoints and `ui/rest/contractAPI.ts`): a contract
 * written as an ODCS document, and an ODCS document (JSON or YAML) read as a contract create request
 * for an entity. The mapping, both ways:
 *
 * | ODCS | contract |
 * |---|---|
 * | `id`, `name`, `version` | `id`, `name`, `version` (as text) |
 * | `status` draft / proposed / active / deprecated / retired | `entityStatus` Draft / In Review / Approved / Deprecated / Rejected |
 * | `description.purpose` | `description` |
 * | `schema[]` object (`objectName`, default the first) and its `properties` | `schema` columns: `physicalType` ↔ `dataType`, `primaryKey` / `unique` / `required` ↔ `constraint` |
 * | `quality[]` with `name` | `qualityExpectations`: the entity's test cases of that name |
 * | `slaProperties` `frequency` / `latency` / `timeOfAvailability` / `retention` | `sla` |
 * | `team[]` (`role: owner`) | `owners`: the users of that name |
 */
import { parse, stringify } from 'yaml';
import type { StoredEntity } from '../../core/entity-store.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { CreateRequest, Entity, EntityReference, Schemas } from '../../core/entity.ts';
import { readEntityLink } from '../../core/entity-link.ts';
import { CatalogError } from '../../core/errors.ts';

export type OdcsContract = Schemas['OdcsDataContract'];
type Column = Schemas['Column'];
type Sla = Schemas['ContractSla'];
type OdcsProperty = { name: string; physicalType?: string; logicalType?: string; description?: string; primaryKey?: boolean; unique?: boolean; required?: boolean };
type OdcsObject = { name: string; physicalType?: string; logicalType?: string; description?: string; properties?: OdcsProperty[] };

const API_VERSION = 'v3.1.0';

const STATUS_TO_ODCS: Record<string, string> = { Draft: 'draft', 'In Review': 'proposed', Approved: 'active', Deprecated: 'deprecated', Rejected: 'retired', Unprocessed: 'draft' };
const STATUS_FROM_ODCS: Record<string, string> = { draft: 'Draft', proposed: 'In Review', active: 'Approved', deprecated: 'Deprecated', retired: 'Rejected' };

/** ODCS logical types of the common data types; the rest are `string`. */
function logicalTypeOf(dataType: string): string {
  const type = dataType.toUpperCase();
  if (['INT', 'BIGINT', 'SMALLINT', 'TINYINT', 'LONG', 'INTEGER'].includes(type)) return 'integer';
  if (['DECIMAL', 'NUMERIC', 'NUMBER', 'DOUBLE', 'FLOAT', 'MONEY'].includes(type)) return 'number';
  if (type === 'BOOLEAN') return 'boolean';
  if (type === 'DATE') return 'date';
  if (type.startsWith('TIMESTAMP') || type === 'DATETIME') return 'timestamp';
  if (type === 'TIME') return 'time';
  if (type === 'ARRAY') return 'array';
  if (['STRUCT', 'MAP', 'JSON', 'RECORD'].includes(type)) return 'object';
  return 'string';
}
const DATA_TYPE_OF: Record<string, string> = {
  integer: 'INT',
  number: 'NUMBER',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  time: 'TIME',
  array: 'ARRAY',
  object: 'JSON',
  string: 'STRING',
};

/** The contract as an ODCS document. */
export function toOdcs(ctx: CatalogContext, contract: Entity): OdcsContract {
  const target = contract.entity as EntityReference;
  const columns = (contract.schema as Column[] | undefined) ?? [];
  const out: OdcsContract = {
    apiVersion: API_VERSION,
    kind: 'DataContract',
    id: contract.id,
    name: contract.name,
    version: String(contract.version),
    status: STATUS_TO_ODCS[String(contract.entityStatus ?? 'Draft')] ?? 'draft',
    contractCreatedTs: new Date(contract.updatedAt).toISOString(),
  };
  if (contract.description) out.description = { purpose: String(contract.description) };
  if (columns.length) {
    const object: OdcsObject = {
      name: target.name ?? target.fullyQualifiedName ?? target.id,
      physicalType: target.type,
      logicalType: 'object',
      properties: columns.map((c) => ({
        name: c.name,
        physicalType: c.dataType,
        logicalType: logicalTypeOf(c.dataType),
        ...(c.description ? { description: c.description } : {}),
        ...(c.constraint === 'PRIMARY_KEY' ? { primaryKey: true, required: true } : {}),
        ...(c.constraint === 'UNIQUE' ? { unique: true } : {}),
        ...(c.constraint === 'NOT_NULL' ? { required: true } : {}),
      })),
    };
    out.schema = [object];
  }
  const tests = (contract.qualityExpectations as EntityReference[] | undefined) ?? [];
  if (tests.length) out.quality = tests.map((t) => ({ type: 'library', name: ctx.store.get(t.id)?.entity.name ?? t.name ?? t.id }));
  const sla = contract.sla as Sla | undefined;
  const slaProperties: { property: string; value: string; unit?: string }[] = [];
  if (sla?.refreshFrequency) slaProperties.push({ property: 'frequency', value: String(sla.refreshFrequency.interval), unit: sla.refreshFrequency.unit });
  if (sla?.maxLatency) slaProperties.push({ property: 'latency', value: String(sla.maxLatency.value), unit: sla.maxLatency.unit });
  if (sla?.availabilityTime) slaProperties.push({ property: 'timeOfAvailability', value: sla.availabilityTime });
  if (sla?.retention) slaProperties.push({ property: 'retention', value: String(sla.retention.period), unit: sla.retention.unit });
  if (slaProperties.length) out.slaProperties = slaProperties;
  const owners = (contract.owners as EntityReference[] | undefined) ?? [];
  if (owners.length) out.team = owners.map((o) => ({ username: o.name ?? o.id, role: 'owner' }));
  return out;
}

export const toOdcsYaml = (ctx: CatalogContext, contract: Entity): string => stringify(toOdcs(ctx, contract));

/** A YAML document as a value; 400 when it is not YAML or not a mapping. */
export function readYaml(text: unknown): Record<string, unknown> {
  let value: unknown;
  try {
    value = parse(typeof text === 'string' ? text : '');
  } catch (error) {
    throw CatalogError.badRequest(`Invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw CatalogError.badRequest('Invalid YAML: expected a mapping');
  return value as Record<string, unknown>;
}

/** Checks that a value is an ODCS document (400 otherwise). */
export function asOdcs(value: Record<string, unknown>): OdcsContract {
  const missing = ['apiVersion', 'kind', 'id', 'version', 'status'].filter((k) => value[k] === undefined || value[k] === null || value[k] === '');
  if (missing.length) throw CatalogError.badRequest(`Invalid ODCS contract: missing ${missing.join(', ')}`);
  if (value.kind !== 'DataContract') throw CatalogError.badRequest(`Invalid ODCS contract: kind must be DataContract, not ${String(value.kind)}`);
  if (value.schema !== undefined && !Array.isArray(value.schema)) throw CatalogError.badRequest('Invalid ODCS contract: schema must be a list');
  return value as OdcsContract;
}

const objectsOf = (odcs: OdcsContract): OdcsObject[] => ((odcs.schema as OdcsObject[] | undefined) ?? []).filter((o) => typeof o?.name === 'string');

/** `POST /v1/dataContracts/odcs/parse/yaml`: what the document holds, its schema objects by name. */
export function parseOdcsSummary(odcs: OdcsContract): Schemas['OdcsParseResult'] {
  const schemaObjects = objectsOf(odcs).map((o) => o.name);
  return {
    ...(odcs.name !== undefined ? { name: String(odcs.name) } : {}),
    version: String(odcs.version),
    status: String(odcs.status),
    schemaObjects,
    hasMultipleObjects: schemaObjects.length > 1,
  };
}

/** The contract create request an ODCS document makes for the entity (`objectName`: which schema object; default the first). */
export function fromOdcs(ctx: CatalogContext, odcs: OdcsContract, target: StoredEntity, objectName?: string): CreateRequest {
  const name = typeof odcs.name === 'string' && odcs.name !== '' ? odcs.name : String(odcs.id);
  const request: CreateRequest = { name, entity: { id: target.entity.id, type: target.type } };
  const status = STATUS_FROM_ODCS[String(odcs.status).toLowerCase()];
  if (status) request.entityStatus = status;
  const purpose = (odcs.description as { purpose?: unknown } | undefined)?.purpose;
  if (typeof purpose === 'string' && purpose !== '') request.description = purpose;
  const objects = objectsOf(odcs);
  const object = objectName === undefined ? objects[0] : objects.find((o) => o.name === objectName);
  if (objectName !== undefined && !object)
    throw CatalogError.badRequest(`Schema object '${objectName}' not found in the ODCS contract; it has ${objects.map((o) => o.name).join(', ') || 'none'}`);
  if (object?.properties?.length) request.schema = object.properties.filter((p) => typeof p?.name === 'string').map(columnOf);
  // Quality rules name the entity's test cases.
  const testCases = [...ctx.store.ofType('testCase')].filter((tc) => !tc.entity.deleted && readEntityLink(tc.entity.entityLink)?.fqn === target.entity.fullyQualifiedName);
  const tests = ((odcs.quality as { name?: unknown }[] | undefined) ?? []).flatMap((rule) =>
    testCases.filter((tc) => tc.entity.name === rule?.name || tc.entity.fullyQualifiedName === rule?.name),
  );
  if (tests.length) request.qualityExpectations = tests.map((tc) => ({ id: tc.entity.id, type: 'testCase' }));
  const sla = slaOf((odcs.slaProperties as { property?: unknown; value?: unknown; unit?: unknown }[] | undefined) ?? []);
  if (sla) request.sla = sla;
  const owners = ((odcs.team as { username?: unknown; role?: unknown }[] | undefined) ?? [])
    .filter((m) => typeof m?.username === 'string' && (m.role === undefined || String(m.role).toLowerCase() === 'owner'))
    .flatMap((m) => {
      const user = ctx.store.getByFqn('user', String(m.username));
      return user && !user.entity.deleted ? [{ id: user.entity.id, type: 'user' }] : [];
    });
  if (owners.length) request.owners = owners;
  return request;
}

function columnOf(property: OdcsProperty): Column {
  const column: Column = { name: property.name, dataType: property.physicalType ?? DATA_TYPE_OF[property.logicalType ?? 'string'] ?? 'STRING' };
  if (property.description) column.description = property.description;
  if (property.primaryKey) column.constraint = 'PRIMARY_KEY';
  else if (property.unique) column.constraint = 'UNIQUE';
  else if (property.required) column.constraint = 'NOT_NULL';
  return column;
}

const positive = (value: unknown): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

function slaOf(properties: { property?: unknown; value?: unknown; unit?: unknown }[]): Sla | undefined {
  const sla: Sla = {};
  const unitOf = (unit: unknown, allowed: readonly string[]) => {
    const u = String(unit ?? '')
      .toLowerCase()
      .replace(/s$/, '');
    return allowed.includes(u) ? u : undefined;
  };
  for (const p of properties) {
    const value = positive(p?.value);
    if (p?.property === 'frequency' && value) {
      const unit = unitOf(p.unit, ['hour', 'day', 'week', 'month', 'year']);
      if (unit) sla.refreshFrequency = { interval: value, unit: unit as 'hour' };
    } else if (p?.property === 'latency' && value !== undefined) {
      const unit = unitOf(p.unit, ['minute', 'hour', 'day']);
      if (unit) sla.maxLatency = { value, unit: unit as 'hour' };
    } else if (p?.property === 'timeOfAvailability' && typeof p.value === 'string') {
      sla.availabilityTime = p.value;
    } else if (p?.property === 'retention' && value) {
      const unit = unitOf(p.unit, ['day', 'week', 'month', 'year']);
      if (unit) sla.retention = { period: value, unit: unit as 'day' };
    }
  }
  return Object.keys(sla).length ? sla : undefined;
}
