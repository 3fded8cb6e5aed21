/**
 * Loading the app under test: the module a task names (resolved and hashed by `task/programs.ts`).
 */
import { XrsimInputError } from '../errors.js';
import type { ModuleRef } from '../task/programs.js';
import { sharedImporter, type ModuleImporter } from './fresh-modules.js';
import type { AppModule } from './types.js';

/**
 * Imports an app module and checks its shape. Sessions pass their own importer, so each gets fresh module
 * instances where the process allows it (see `fresh-modules.ts`).
 */
export async function importApp(ref: ModuleRef, importModule: ModuleImporter = sharedImporter): Promise<AppModule> {
  const module = (await importModule(ref.path)) as Record<string, unknown> & { default?: unknown };
  const candidate = (typeof module.frame === 'function' ? module : module.default) as Partial<AppModule> | undefined;
  if (!candidate || typeof candidate.frame !== 'function') {
    throw new XrsimInputError(`${ref.path} is not an app: it must export frame(frame, ctx) (and optionally setup(ctx))`, { file: ref.path, expected: 'export function frame(frame, ctx) { ... }' });
  }
  return candidate as AppModule;
}
