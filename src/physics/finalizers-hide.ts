/**
 * Evaluated just before Rapier's module (see `rapier.ts`): hides `FinalizationRegistry` so that Rapier's
 * wasm-bindgen glue takes its own fallback for engines without one, and `finalizers-restore.ts` puts it back
 * right after. Module evaluation is synchronous, so no other code runs while it is hidden.
 *
 * Why: the glue registers every wasm object it wraps (about 740 per tiny session: worlds, vectors,
 * descriptors) and unregisters it when freed. Each registration allocates a weak cell in V8's old space,
 * about 55 KB per session, which only a full collection reclaims: a sweep paid for it in full collections
 * on V8's helper threads, and in register and unregister calls. The kernel frees every Rapier object it
 * makes (`test/rapier-freeing.test.ts` checks every suite task), so the finalizers never had work to do.
 * If Rapier was loaded before xrsim, it keeps its finalizers, and nothing changes but the speed.
 */
export const hiddenFinalizationRegistry = globalThis.FinalizationRegistry;
(globalThis as { FinalizationRegistry?: unknown }).FinalizationRegistry = undefined;
