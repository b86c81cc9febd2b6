/**
 * Data contracts as documents (docs/behaviour.md "Data contracts"): the ODCS export imported for
 * another table keeps the contract (rule data-contract.odcs-round-trip); a contract request checked
 * by the validate endpoints is judged and not stored (rule data-contract.validate-stores-nothing).
 */
import { parse } from 'yaml';
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS } from '../kinds.ts';
import type { Model, ModelEntity } from '../model.ts';
import { tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';
import { makeTable } from './tables.ts';

const ODCS = 'data-contract.odcs-round-trip';
const VALIDATE = 'data-contract.validate-stores-nothing';
const BASE = '/v1/dataContracts';
const MISSING_TABLE = '3d6f0a52-0000-4000-8000-0000000000ab';

/** Another table with the columns c1, c2 in the schema of `table`. */
async function siblingTable(s: Session, m: Model, table: ModelEntity): Promise<{ id: string; name: string }> {
  const name = m.freshName(tagOf(KINDS.table));
  const ex = await s.send({
    method: 'POST',
    path: KINDS.table.path,
    body: {
      name,
      databaseSchema: table.parent?.fqn,
      columns: [
        { name: 'c1', dataType: 'INT' },
        { name: 'c2', dataType: 'STRING' },
      ],
    },
  });
  const got = setupOk(ex, [200, 201], 'create a second table');
  if (typeof got.id !== 'string') throw new SetupError(`create a table: no id in ${ex.responseText.slice(0, 200)}`);
  return { id: got.id, name };
}

/** The column names of a contract's schema. */
const schemaNames = (contract: unknown) => asArray(asObject(contract)?.schema)?.map((col) => asObject(col)?.name);
/** The property names of an ODCS document's first schema object. */
const odcsProperties = (doc: unknown) => asArray(asObject(asArray(asObject(doc)?.schema)?.[0])?.properties)?.map((p) => asObject(p)?.name);
const show = (ex: Exchange) => `${ex.status} ${ex.responseText.slice(0, 300)}`;

export const contractDocuments: Scenario = {
  name: 'data-contract-documents',
  rules: [ODCS, VALIDATE],
  async run(s, m) {
    if (!s.ctx.available.has('dataContract')) return;
    const c = s.checker;
    const table = await makeTable(s, m);
    const [second, third] = [await siblingTable(s, m, table), await siblingTable(s, m, table)];
    const description = 'catalog-kit conform: an ODCS round trip';
    const created = await s.send({
      method: 'POST',
      path: BASE,
      body: { name: m.freshName('dc'), entity: { id: table.id, type: 'table' }, description, schema: [{ name: 'c1', dataType: 'INT' }] },
    });
    const contract = setupOk(created, [200, 201], 'create a data contract');
    const id = String(contract.id);
    s.registerExtra(`${BASE}/${id}`);
    const fqn = String(contract.fullyQualifiedName);

    // Validation stores nothing: the third table has no contract before and after.
    const request = { name: m.freshName('dc'), entity: { id: third.id, type: 'table' }, description };
    const judged = (ex: Exchange, valid: boolean) => {
      const r = asObject(ex.json);
      return ex.status === 200 && r?.valid === valid && (valid ? asArray(r.entityErrors)?.length === 0 : (asArray(r.entityErrors)?.length ?? 0) > 0);
    };
    const good = await s.send({ method: 'POST', path: `${BASE}/validate`, body: request });
    c.check(VALIDATE, judged(good, true), `POST ${BASE}/validate of a contract for table ${third.name}: valid, no entityErrors`, () => show(good), good);
    const bad = await s.send({ method: 'POST', path: `${BASE}/validate`, body: { ...request, entity: { id: MISSING_TABLE, type: 'table' } } });
    c.check(VALIDATE, judged(bad, false), `POST ${BASE}/validate of a contract for a missing table: not valid, entityErrors`, () => show(bad), bad);
    const yamlRequest = `name: ${request.name}\nentity:\n  id: ${third.id}\n  type: table\n`;
    const goodYaml = await s.send({ method: 'POST', path: `${BASE}/validate/yaml`, rawBody: yamlRequest, contentType: 'application/yaml' });
    c.check(VALIDATE, judged(goodYaml, true), `POST ${BASE}/validate/yaml of the same request: valid`, () => show(goodYaml), goodYaml);

    // Export: JSON by id and by name agree; YAML holds the same document.
    const byId = await s.send({ method: 'GET', path: `${BASE}/${id}/odcs` });
    const doc = asObject(byId.json);
    const odcsOk =
      byId.status === 200 && String(doc?.apiVersion).startsWith('v3') && doc?.kind === 'DataContract' && JSON.stringify(odcsProperties(doc)) === JSON.stringify(['c1']);
    c.check(ODCS, odcsOk, `GET ${BASE}/${id}/odcs: an ODCS v3 DataContract whose schema object has the property c1`, () => show(byId), byId);
    if (!doc) return;
    const byName = await s.send({ method: 'GET', path: `${BASE}/name/${encodeURIComponent(fqn)}/odcs` });
    c.check(ODCS, byName.status === 200 && JSON.stringify(byName.json) === JSON.stringify(doc), `GET ${BASE}/name/${fqn}/odcs: the document by id`, () => show(byName), byName);
    const yaml = await s.send({ method: 'GET', path: `${BASE}/${id}/odcs/yaml` });
    let fromYaml: unknown;
    try {
      fromYaml = parse(yaml.responseText);
    } catch {
      fromYaml = undefined;
    }
    c.check(
      ODCS,
      yaml.status === 200 && yaml.responseContentType.includes('yaml') && JSON.stringify(odcsProperties(fromYaml)) === JSON.stringify(['c1']) && asObject(fromYaml)?.id === doc.id,
      `GET ${BASE}/${id}/odcs/yaml: YAML of the same document`,
      () => show(yaml),
      yaml,
    );
    const parsed = await s.send({ method: 'POST', path: `${BASE}/odcs/parse/yaml`, rawBody: yaml.responseText, contentType: 'application/yaml' });
    c.check(
      ODCS,
      parsed.status === 200 && JSON.stringify(asObject(parsed.json)?.schemaObjects) === JSON.stringify([table.name]),
      `POST ${BASE}/odcs/parse/yaml of the export: schemaObjects [${table.name}]`,
      () => show(parsed),
      parsed,
    );
    const odcsValidated = await s.send({
      method: 'POST',
      path: `${BASE}/odcs/validate/yaml`,
      query: { entityId: third.id, entityType: 'table' },
      rawBody: yaml.responseText,
      contentType: 'application/yaml',
    });
    c.check(VALIDATE, judged(odcsValidated, true), `POST ${BASE}/odcs/validate/yaml of the export for table ${third.name}: valid`, () => show(odcsValidated), odcsValidated);
    const stillNone = await s.send({ method: 'GET', path: `${BASE}/entity`, query: { entityId: third.id, entityType: 'table' } });
    c.check(VALIDATE, stillNone.status === 404, `after the validations, table ${third.name} still has no data contract (404)`, () => show(stillNone), stillNone);

    // Import: the document for the second table (JSON), then for the third (YAML); each kept the contract.
    const keeps = (ex: Exchange, statuses: number[], entityId: string) => {
      const got = asObject(ex.json);
      return (
        statuses.includes(ex.status) && asObject(got?.entity)?.id === entityId && got?.description === description && JSON.stringify(schemaNames(got)) === JSON.stringify(['c1'])
      );
    };
    const into = (t: { id: string }) => ({ entityId: t.id, entityType: 'table' });
    const jsonName = m.freshName('dc');
    const imported = await s.send({ method: 'POST', path: `${BASE}/odcs`, query: into(second), body: { ...doc, name: jsonName } });
    const importedId = asObject(imported.json)?.id;
    if (typeof importedId === 'string') s.registerExtra(`${BASE}/${importedId}`);
    c.check(
      ODCS,
      keeps(imported, [201], second.id),
      `POST ${BASE}/odcs of the export for table ${second.name}: 201, the description and schema [c1]`,
      () => show(imported),
      imported,
    );
    const stored = await s.send({ method: 'GET', path: `${BASE}/${String(importedId)}` });
    c.check(ODCS, keeps(stored, [200], second.id), `GET the imported contract: the description and schema [c1]`, () => show(stored), stored);
    const changed = 'catalog-kit conform: changed by an ODCS PUT';
    const updated = await s.send({ method: 'PUT', path: `${BASE}/odcs`, query: into(second), body: { ...doc, name: jsonName, description: { purpose: changed } } });
    const u = asObject(updated.json);
    c.check(
      ODCS,
      updated.status === 200 && u?.id === importedId && u?.description === changed && JSON.stringify(schemaNames(u)) === JSON.stringify(['c1']),
      `PUT ${BASE}/odcs with a new purpose: 200, the same contract with description "${changed}"`,
      () => show(updated),
      updated,
    );
    const fromYamlImport = await s.send({ method: 'POST', path: `${BASE}/odcs/yaml`, query: into(third), rawBody: yaml.responseText, contentType: 'application/yaml' });
    const yamlId = asObject(fromYamlImport.json)?.id;
    if (typeof yamlId === 'string') s.registerExtra(`${BASE}/${yamlId}`);
    c.check(
      ODCS,
      keeps(fromYamlImport, [201], third.id),
      `POST ${BASE}/odcs/yaml of the export for table ${third.name}: 201, the description and schema [c1]`,
      () => show(fromYamlImport),
      fromYamlImport,
    );
    const again = await s.send({ method: 'PUT', path: `${BASE}/odcs/yaml`, query: into(third), rawBody: yaml.responseText, contentType: 'application/yaml' });
    c.check(
      ODCS,
      keeps(again, [200], third.id) && asObject(again.json)?.id === yamlId,
      `PUT ${BASE}/odcs/yaml of the same export: 200, the same contract`,
      () => show(again),
      again,
    );
  },
};
