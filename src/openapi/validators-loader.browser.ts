/**
 * The compiled validators in the browser build of the catalog in process: the generator's output
 * (openapi/generated/validators/index.cjs, which requires the rest) bundled into the build, so
 * nothing is read at run time. Node.js takes validators-loader.ts.
 */
import compiled from '../../openapi/generated/validators/index.cjs';
import type { CompiledValidators } from './compiled.ts';

export function loadCompiledValidators(): CompiledValidators {
  return compiled as unknown as CompiledValidators;
}
