/**
 * Custom properties in a fixture file (README.md "Your own fixtures"; docs/behaviour.md "Custom
 * properties"):
 *
 *   { "customProperties": [{ "entityType": "table", "name", "description", "propertyType": "enum",
 *                            "customPropertyConfig"?: {"config": …} }, …] }
 *
 * each added as `PUT /v1/metadata/types/{id}` adds it (the property type named by its name),
 * checked against the `CustomProperty` schema first. Load them before the entities whose
 * `extension` uses them.
 */
import type { CatalogContext } from '../domain/context.ts';
import { detailsText } from '../openapi/validation-details.ts';
import type { CustomProperty } from './entity-types.ts';
import { addCustomProperty, findType } from './entity-types.ts';

export interface CustomPropertiesFile {
  user?: string;
  customProperties?: (Omit<CustomProperty, 'propertyType'> & { entityType: string; propertyType: string })[];
}

/** Adds a file's custom properties; returns how many. */
export function loadCustomProperties(ctx: CatalogContext, file: CustomPropertiesFile, check: boolean): number {
  for (const { entityType, propertyType, ...rest } of file.customProperties ?? []) {
    const body = { ...rest, propertyType: { id: findType(ctx, 'name', propertyType).id, type: 'type' } } as CustomProperty;
    const problems = check ? ctx.validators.validate('CustomProperty', body) : [];
    if (problems.length) throw new Error(`custom property ${entityType}.${rest.name}: ${detailsText(problems, '; ')}`);
    addCustomProperty(ctx, findType(ctx, 'name', entityType).id, body, file.user ?? 'admin');
  }
  return file.customProperties?.length ?? 0;
}
