/**
 * Per-process caches of loaded documents, by content. A sweep's worker loads the same task, scene and hand
 * model for session after session; reading a file again is cheap (and skipped while it is unchanged:
 * `kept-texts.ts`), parsing and validating it is not. A
 * cache entry is keyed by the file and holds the text it was made from: the same text gives back the same
 * (validated, frozen) result, a changed file is loaded afresh, so an edit between sessions is never missed.
 */

/** Least-recently-used entries beyond this many are dropped. */
const DEFAULT_CAPACITY = 256;

/** Results of loading files, by file and text. */
export class ContentCache<T> {
  private readonly entries = new Map<string, { text: string; value: T }>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** The result for `file` read as `text`: the cached one if the text is unchanged, else `load()` (cached if it returns). */
  get(file: string, text: string, load: () => T): T {
    const hit = this.entries.get(file);
    if (hit && hit.text === text) {
      // Most recently used last.
      this.entries.delete(file);
      this.entries.set(file, hit);
      return hit.value;
    }
    const value = load();
    this.entries.delete(file);
    this.entries.set(file, { text, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/** Freezes an object graph (plain data: objects and arrays), so a shared result cannot be changed. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
