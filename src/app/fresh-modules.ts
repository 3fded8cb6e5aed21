/**
 * Fresh module instances per session. A session's programs (its app, its actor script and every file of
 * their own they import) are instantiated anew for each session, so module-level state in one session
 * cannot reach the next one run in the same process. Packages imported by name (`xrsim`, `three`) and
 * Node's built-ins are loaded once per process and shared, as any import of them is.
 *
 * This uses `vm.SourceTextModule` in the current realm, which needs Node's `--experimental-vm-modules`.
 * Session workers run with it and turn fresh instances on ({@link useFreshModules}); other processes
 * import programs with `import()`, sharing module instances among their sessions.
 *
 * Node never frees a vm module (nodejs/node#59118), so each session leaves its modules behind: a few KB,
 * plus whatever they hold. Workers retire when they grow past a limit (`WORKER_RSS_LIMIT_MB`). Each
 * instance gets its own identifier (`app.mjs?xrsim-instance=N`): reusing one makes every later module
 * slower to create. Recorded stacks drop the suffix (`sanitizeStack`).
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { EagerCodeCache } from './eager-code-cache.js';
import { MODULE_BODY, planFactory } from './module-factory.js';

/** The suffix of a fresh instance's identifier (in stack traces; `sanitizeStack` removes it). */
export const INSTANCE_SUFFIX = '?xrsim-instance=';

/** Imports a program module by absolute path and returns its namespace. */
export type ModuleImporter = (path: string) => Promise<Record<string, unknown>>;

/** The process-wide `import()`: one shared instance per module. */
export const sharedImporter: ModuleImporter = (path) => import(pathToFileURL(path).href) as Promise<Record<string, unknown>>;

// The experimental API's types are not in @types/node's stable surface for every version: name what we use.
interface VmModule {
  readonly namespace: Record<string, unknown>;
  readonly status: string;
  link(linker: (specifier: string, referrer: VmModule, extra: { attributes?: Record<string, string>; assert?: Record<string, string> }) => Promise<VmModule>): Promise<void>;
  evaluate(): Promise<void>;
}
interface SourceTextModule extends VmModule {
  createCachedData(): Buffer;
}
interface VmModuleApi {
  SourceTextModule?: new (source: string, options: Record<string, unknown>) => SourceTextModule;
  SyntheticModule: new (exports: string[], evaluate: (this: { setExport(name: string, value: unknown): void }) => void, options: { identifier: string }) => VmModule;
}
const api = vm as unknown as VmModuleApi;

/** True when this process can give sessions fresh module instances. */
export const freshModulesAvailable = typeof api.SourceTextModule === 'function';
let freshModulesOn = false;

/** Turns fresh module instances per session on for this process (session workers do). */
export function useFreshModules(): void {
  if (!freshModulesAvailable) throw new Error('fresh module instances need Node\'s --experimental-vm-modules');
  freshModulesOn = true;
}

/** A program file's body as a function compiled once per process (`module-factory.ts`), and what it imports of the program's own files. */
interface ModuleFactory {
  body: (deps: Record<string, unknown>[]) => Record<string, unknown>;
  deps: string[];
  exportNames: string[];
}
interface SourceEntry {
  stamp: string;
  source: string;
  cachedData?: Buffer;
  factory?: Promise<ModuleFactory | null>;
}
/** A factory with the factories of the files it imports, resolved for one session. */
interface FactoryNode {
  url: string;
  factory: ModuleFactory;
  deps: FactoryNode[];
}
/** Source text, V8 code cache and factory (null: fresh instances only) per file, reused while its size and mtime stay the same. */
const sources = new Map<string, SourceEntry>();
/** Package `type` per folder (for `.js` files). */
const packageTypes = new Map<string, 'module' | 'commonjs'>();
/** Shared modules (packages, built-ins) wrapped once per process and linked into every session's graph. */
const sharedModules = new Map<string, Promise<VmModule>>();
let instantiated = 0;
/** Whole-file code caches (`eager-code-cache.ts`), made from a throwaway instance that is never evaluated. */
const eagerCaches = new EagerCodeCache((source, identifier) => new api.SourceTextModule!(source, { identifier }));

/** How many program modules have been instantiated fresh in this process (workers check hygiene after sessions that ran any). */
export function freshModuleCount(): number {
  return instantiated;
}

/** The importer for one session: fresh instances where turned on, else the shared `import()`. */
export function sessionModuleImporter(): ModuleImporter {
  return freshModulesOn ? freshImporter() : sharedImporter;
}

/** A module graph of its own: every file module imported through it is instantiated once, for this importer only. */
function freshImporter(): ModuleImporter {
  const modules = new Map<string, Promise<VmModule>>();
  /** This session's instances of factory-made modules: their exports, or what their body threw. */
  const instances = new Map<string, { exports?: Record<string, unknown>; error?: unknown }>();

  /** Runs a factory-made module's body for this session (its imports' first), once. */
  const exportsOf = (node: FactoryNode): Record<string, unknown> => {
    let instance = instances.get(node.url);
    if (!instance) {
      try {
        const deps = node.deps.map(exportsOf);
        instantiated++;
        instance = { exports: Reflect.apply(node.factory.body, undefined, [deps]) };
      } catch (error) {
        instance = { error };
      }
      instances.set(node.url, instance);
    }
    if (instance.exports) return instance.exports;
    throw instance.error;
  };

  const moduleFor = ({ url, shared }: Resolved, attributes: Record<string, string> | undefined): Promise<VmModule> => {
    if (shared || !isEsmFile(fileURLToPath(url), attributes)) return sharedModule(url, attributes);
    let module = modules.get(url);
    if (!module) {
      module = createModule(url);
      modules.set(url, module);
    }
    return module;
  };

  const createModule = async (url: string): Promise<VmModule> => {
    const node = await factoryGraph(url, new Set());
    if (node) {
      // Runs the body when the graph evaluates this module, in the order ESM would (its imports are factories too).
      const names = node.factory.exportNames;
      return new api.SyntheticModule(
        names,
        function () {
          const exports = exportsOf(node);
          for (const name of names) this.setExport(name, exports[name]);
        },
        { identifier: `${url}${INSTANCE_SUFFIX}${instantiated + 1}` },
      );
    }
    const path = fileURLToPath(url);
    const entry = readSource(path);
    instantiated++;
    const options = {
      identifier: `${url}${INSTANCE_SUFFIX}${instantiated}`,
      initializeImportMeta(meta: Record<string, unknown>) {
        meta.url = url;
        meta.filename = path;
        meta.dirname = dirname(path);
        const resolve = (specifier: string) => resolveSpecifier(specifier, url).url; // made first, then assigned: docs/SWEEPS.md, "Per-session garbage"
        meta.resolve = resolve;
      },
      importModuleDynamically: async (specifier: string, referrer: { identifier: string }, attrs: Record<string, string>) => {
        const imported = await moduleFor(resolveSpecifier(specifier, referrer.identifier), attrs);
        await linkAndEvaluate(imported);
        return imported;
      },
    };
    let module: SourceTextModule;
    try {
      module = new api.SourceTextModule!(entry.source, { ...options, cachedData: entry.cachedData });
    } catch (err) {
      // A whole-file cache this V8 will not take: compile without it, and make only top-level caches from now on.
      if ((err as { code?: string }).code !== 'ERR_VM_MODULE_CACHED_DATA_REJECTED') throw err;
      eagerCaches.reject();
      entry.cachedData = undefined;
      module = new api.SourceTextModule!(entry.source, options);
    }
    // The throwaway's identifier ends like an instance's: an instance made from a cache names the cache's
    // script in its stack traces, and recorded stacks drop only that suffix (`sanitizeStack`).
    entry.cachedData ??= eagerCaches.make(entry.source, `${url}${INSTANCE_SUFFIX}0`, module.createCachedData());
    return module;
  };

  const linkAndEvaluate = async (module: VmModule): Promise<void> => {
    if (module.status === 'unlinked') {
      await module.link((specifier, referrer, extra) => moduleFor(resolveSpecifier(specifier, (referrer as unknown as { identifier: string }).identifier), extra.attributes ?? extra.assert));
    }
    if (module.status === 'linked') await module.evaluate();
  };

  return async (path) => {
    const module = await moduleFor({ url: pathToFileURL(path).href, shared: false }, undefined);
    await linkAndEvaluate(module);
    return module.namespace;
  };
}

/**
 * The factory of a program file and of every program file it imports, or null when any of them must get
 * fresh instances or the file is in an import cycle (a factory's imports must be instantiated before it).
 */
async function factoryGraph(url: string, path: Set<string>): Promise<FactoryNode | null> {
  if (path.has(url)) return null;
  const entry = readSource(fileURLToPath(url));
  entry.factory ??= compileFactory(url, entry.source);
  const factory = await entry.factory;
  if (!factory) return null;
  path.add(url);
  const deps: FactoryNode[] = [];
  for (const dep of factory.deps) {
    const node = await factoryGraph(dep, path);
    if (!node) break;
    deps.push(node);
  }
  path.delete(url);
  return deps.length === factory.deps.length ? { url, factory, deps } : null;
}

/** Rewrites a program file as a factory and compiles it, or null where it must get fresh instances. */
async function compileFactory(url: string, source: string): Promise<ModuleFactory | null> {
  try {
    const plan = planFactory(source, (specifier) => {
      const resolved = resolveSpecifier(specifier, url);
      return !resolved.shared && isEsmFile(fileURLToPath(resolved.url), undefined);
    });
    if (!plan) return null;
    const module = new api.SourceTextModule!(plan.source, { identifier: `${url}${INSTANCE_SUFFIX}0` });
    await module.link((specifier) => sharedModule(resolveSpecifier(specifier, url).url, undefined));
    await module.evaluate();
    const body = module.namespace[MODULE_BODY] as ModuleFactory['body'];
    return { body, deps: plan.programImports.map((specifier) => resolveSpecifier(specifier, url).url), exportNames: plan.exportNames };
  } catch {
    return null; // top-level await, a syntax error, a package that fails to load: a fresh instance shows it as Node does
  }
}

/** A module shared with the whole process (packages, built-ins, CommonJS, JSON), wrapped once for linking. */
function sharedModule(url: string, attributes: Record<string, string> | undefined): Promise<VmModule> {
  const key = `${attributes?.type ?? ''}:${url}`;
  let module = sharedModules.get(key);
  if (!module) {
    module = wrapShared(url, attributes);
    sharedModules.set(key, module);
  }
  return module;
}

async function wrapShared(url: string, attributes: Record<string, string> | undefined): Promise<VmModule> {
  const namespace = (await (attributes?.type === 'json' ? import(url, { with: { type: 'json' } }) : import(url))) as Record<string, unknown>;
  const names = Object.keys(namespace);
  return new api.SyntheticModule(
    names,
    function () {
      for (const name of names) this.setExport(name, namespace[name]);
    },
    { identifier: url },
  );
}

/** Where an import leads, and whether it is a package or built-in (shared) or one of the program's own files (fresh). */
interface Resolved {
  url: string;
  shared: boolean;
}

/** Resolves an import specifier against the importing module's URL, as Node's ESM resolver does. */
function resolveSpecifier(specifier: string, parentUrl: string): Resolved {
  if (isBuiltin(specifier)) return { url: specifier.startsWith('node:') ? specifier : `node:${specifier}`, shared: true };
  if (/^(\.{0,2}\/|file:)/.test(specifier)) {
    const url = new URL(specifier, parentUrl).href;
    const path = fileURLToPath(url);
    try {
      statSync(path);
    } catch {
      throw Object.assign(new Error(`Cannot find module '${path}' imported from ${fileURLToPath(parentUrl)}`), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return { url, shared: false };
  }
  // A package by name (`xrsim`, `three`): resolved from the importing file's folder, and shared.
  const withParent = import.meta.resolve as unknown as (specifier: string, parent: string) => string;
  if (process.execArgv.includes('--experimental-import-meta-resolve')) return { url: withParent(specifier, parentUrl), shared: true };
  return { url: pathToFileURL(createRequire(fileURLToPath(parentUrl)).resolve(specifier)).href, shared: true };
}

/** `.mjs`, or `.js` in a package whose type is `module`; JSON and CommonJS go through the shared loader. */
function isEsmFile(path: string, attributes: Record<string, string> | undefined): boolean {
  if (attributes?.type === 'json') return false;
  const ext = extname(path);
  if (ext === '.mjs') return true;
  if (ext !== '.js') return false;
  return packageType(dirname(path)) === 'module';
}

function packageType(folder: string): 'module' | 'commonjs' {
  const known = packageTypes.get(folder);
  if (known) return known;
  let type: 'module' | 'commonjs';
  try {
    type = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { type?: string }).type === 'module' ? 'module' : 'commonjs';
  } catch {
    const parent = dirname(folder);
    type = parent === folder ? 'commonjs' : packageType(parent);
  }
  packageTypes.set(folder, type);
  return type;
}

function readSource(path: string): SourceEntry {
  const stat = statSync(path);
  const stamp = `${stat.size}:${stat.mtimeMs}`;
  const cached = sources.get(path);
  if (cached && cached.stamp === stamp) return cached;
  const entry: SourceEntry = { stamp, source: readFileSync(path, 'utf8') };
  sources.set(path, entry);
  return entry;
}
