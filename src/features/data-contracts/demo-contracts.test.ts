/**
 * The demo catalog's data contracts (fixtures/default): every contract a UI lists — the first one
 * included, the *Customer 360* data product's — opens with a history of validation results.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, startApp, v1 } from '../../../test/kit.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ fixtures: 'default' });
}, SLOW_START);

describe('demo data contracts', () => {
  it('each one listed, the first one included, has a history of results', async () => {
    const contracts = (await app.get(v1('dataContracts', '?limit=100')).expect(200)).body.data as Body[];
    expect(contracts.length).toBeGreaterThanOrEqual(4);
    expect(contracts[0]!.fullyQualifiedName).toBe('Customer 360.dataContract_customer_360_contract');
    for (const contract of contracts) {
      const results = (await app.get(v1('dataContracts', `/${String(contract.id)}/results?limit=100`)).expect(200)).body.data as Body[];
      expect(results.length, String(contract.fullyQualifiedName)).toBeGreaterThanOrEqual(3);
      await app.get(v1('dataContracts', `/${String(contract.id)}/results/latest`)).expect(200);
    }
  });
});
