/**
 * `POST /v1/dataContracts/validate` (openapi/openapi.yaml; docs/behaviour.md "Data
 * contracts"): a data contract create request checked without storing it. Registered before the
 * generic entity routes.
 */
import type { CatalogContext } from '../../core/context.ts';
import { checkContractRequest } from './contract-request-check.ts';
import type { CreateRequest } from '../../core/entity.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';

export function mountDataContractRequestRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  router.post('/api/v1/dataContracts/validate', (req, reply) => {
    reply.json(checkContractRequest(ctx, req.body as CreateRequest));
  });
}
