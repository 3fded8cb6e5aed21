/** Evaluated just after Rapier's module: puts back what `finalizers-hide.ts` hid. */
import { hiddenFinalizationRegistry } from './finalizers-hide.js';

globalThis.FinalizationRegistry = hiddenFinalizationRegistry;
