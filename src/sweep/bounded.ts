/**
 * The coordinator's core: take work from a lazy source, keep at most `capacity` items in flight on an
 * executor, and hand results on in completion order. Memory is bounded by `capacity`, whatever the number
 * of items: the source is pulled only when a slot frees, and nothing races over all pending promises.
 */

/**
 * Runs `execute` over the items of `source` with at most `capacity` in flight, yielding outputs as they
 * finish. `capacity` may be a function, asked each time a slot frees (an executor that batches short
 * sessions wants more in flight than one with long ones). A rejection from `execute` stops the run and is
 * thrown (work already in flight is abandoned).
 */
export async function* runBounded<T, R>(source: Iterator<T>, capacity: number | (() => number), execute: (item: T) => Promise<R>): AsyncGenerator<R> {
  for await (const batch of runBoundedBatches(source, capacity, execute)) yield* batch;
}

/**
 * {@link runBounded}, yielding every output that finished since the last step as one array (oldest first):
 * a coordinator of short sessions pays the generator's promises once per wake-up, not once per session.
 * The array is the caller's until its next step; the source is refilled before each batch is yielded.
 */
export async function* runBoundedBatches<T, R>(source: Iterator<T>, capacity: number | (() => number), execute: (item: T) => Promise<R>): AsyncGenerator<R[]> {
  const limit = typeof capacity === 'function' ? capacity : () => capacity;
  const checked = () => {
    const value = limit();
    if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`capacity must be a positive integer, got ${value}`);
    return value;
  };
  checked();
  let finished: R[] = [];
  let inFlight = 0;
  let exhausted = false;
  const state: { failure: { error: unknown } | null } = { failure: null };
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  // Two callbacks for every item, not two closures per item.
  const onOutput = (output: R) => {
    inFlight--;
    finished.push(output);
    signal();
  };
  const onError = (error: unknown) => {
    inFlight--;
    state.failure ??= { error };
    signal();
  };
  const fill = () => {
    const most = checked();
    while (!exhausted && !state.failure && inFlight < most) {
      const next = source.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      inFlight++;
      execute(next.value).then(onOutput, onError);
    }
  };
  fill();
  while (inFlight > 0 || finished.length > 0) {
    if (state.failure) throw state.failure.error;
    if (finished.length === 0) {
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    const batch = finished;
    finished = [];
    fill(); // keep the executor busy while the consumer handles these
    yield batch;
  }
  if (state.failure) throw state.failure.error;
}
