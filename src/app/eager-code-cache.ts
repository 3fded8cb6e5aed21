/**
 * A V8 code cache for a program file that holds the bytecode of every function in it, not only of the
 * top level, for the fresh module instances of `fresh-modules.ts`.
 *
 * Why: each session compiles its program modules anew. A code cache made with `createCachedData()` before
 * evaluation (all Node allows for a `vm.SourceTextModule`) holds only what V8 compiled eagerly, the top
 * level; every function the session then calls is parsed and compiled again, in every session. Compiling
 * a throwaway instance with V8's `--no-lazy` makes V8 compile all of its functions at once, so its cache
 * holds them all. The throwaway instance is never linked or evaluated.
 *
 * V8 stamps a cache with a hash of the flags it was made under and rejects it under other flags. Only
 * `--lazy` differed, and it changes when functions are compiled, not the bytecode: so the cache takes the
 * stamp of a cache made under the process's own flags (the header word after the magic number, V8's
 * version and the source's hash; V8 checks that word against its flags and nothing else against it). Where
 * a V8 lays its header out differently, V8 rejects the cache (Node then throws), and the caller goes back
 * to the top-level cache for good: {@link EagerCodeCache.rejected}.
 *
 * Measured on the suite in warm processes (docs/SWEEPS.md, "Fresh modules' cost"): CPU per suite pass with
 * fresh instances 1.13–1.17× shared instances with the top-level cache, 1.08–1.09× with this one.
 */
import v8 from 'node:v8';

/** Offsets of V8's code-cache header (`SerializedCodeData`): magic number, version hash, source hash, flag hash. */
const FLAG_HASH_OFFSET = 12;
const HEADER_CHECKED = 12;

/** What is needed of `vm.SourceTextModule` to compile a throwaway instance. */
type Compile = (source: string, identifier: string) => { createCachedData(): Buffer };

/** Makes whole-file code caches; stops for the process at the first one V8 rejects. */
export class EagerCodeCache {
  /** Off where the process already compiles everything eagerly (its top-level caches hold every function). */
  private off = process.execArgv.includes('--no-lazy');

  constructor(private readonly compile: Compile) {}

  /** True once V8 rejected one of these caches: callers use top-level caches from then on. */
  get rejected(): boolean {
    return this.off;
  }

  /** Call when V8 rejected a cache this made. */
  reject(): void {
    this.off = true;
  }

  /**
   * A cache of every function of `source`, stamped like `topLevel` (a cache of the same source made under
   * the process's flags), or `topLevel` itself when that cannot be done. `identifier` names the throwaway
   * instance, and every instance later made from the cache names it in its stack traces (V8 keeps the
   * cached script's name), so it must read like the instances' own.
   */
  make(source: string, identifier: string, topLevel: Buffer): Buffer {
    if (this.off) return topLevel;
    let eager: Buffer;
    v8.setFlagsFromString('--no-lazy');
    try {
      eager = this.compile(source, identifier).createCachedData();
    } catch {
      return topLevel;
    } finally {
      v8.setFlagsFromString('--lazy');
    }
    // Same magic number, V8 version and source: only then is the next word the flag hash to take over.
    if (eager.length < FLAG_HASH_OFFSET + 4 || topLevel.length < FLAG_HASH_OFFSET + 4 || eager.compare(topLevel, 0, HEADER_CHECKED, 0, HEADER_CHECKED) !== 0) return topLevel;
    topLevel.copy(eager, FLAG_HASH_OFFSET, FLAG_HASH_OFFSET, FLAG_HASH_OFFSET + 4);
    return eager;
  }
}
