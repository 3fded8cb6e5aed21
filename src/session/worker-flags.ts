/**
 * Extra Node and V8 flags for a pool's worker processes (on top of `WORKER_EXEC_ARGV`, which every worker
 * needs): a pool's `workerV8Flags`, else the {@link WORKER_V8_FLAGS_ENV} environment variable, else none
 * (V8's defaults). Useful to give workers a larger heap (`--max-old-space-size=8192`) or to tune V8's
 * garbage collector for a machine, and to measure such flags with the benchmarks
 * (`XRSIM_WORKER_V8_FLAGS=--single-threaded-gc npm run bench -- scale`).
 *
 * The default is V8's own flags. Flags that keep garbage collection off V8's helper threads when the
 * workers occupy every core (`--single-threaded-gc`, `--no-concurrent-marking`, ...) were measured for
 * issue 10 and none made 2-worker sweeps faster on both benchmarks (docs/SWEEPS.md, "Worker V8 flags").
 *
 * GC and memory-layout flags change how fast a worker runs, not what a session computes: results and hashes
 * are the same with and without them (test/worker-flags.test.ts). Flags that change limits (a smaller heap
 * or stack) can change whether a session runs out of them, as on any machine.
 */
import { XrsimInputError } from '../errors.js';

/** Environment variable with flags for every pool that is not given its own: separated by spaces, empty for none. */
export const WORKER_V8_FLAGS_ENV = 'XRSIM_WORKER_V8_FLAGS';

/** A Node or V8 option, with an optional value: nothing a shell or a second argument could hide in. */
const FLAG = /^--[a-z0-9][a-z0-9_-]*(=[\w.,:/+-]+)?$/i;

/**
 * The extra flags a pool starts each worker with: `requested` (a pool's `workerV8Flags`) if given, else the
 * {@link WORKER_V8_FLAGS_ENV} variable, else none. Throws {@link XrsimInputError} for anything that is not
 * a list of `--flag` or `--flag=value` options.
 */
export function resolveWorkerV8Flags(requested?: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const where = requested === undefined ? WORKER_V8_FLAGS_ENV : 'workerV8Flags';
  const flags = requested ?? (env[WORKER_V8_FLAGS_ENV] ?? '').split(/\s+/).filter((flag) => flag !== '');
  if (!Array.isArray(flags)) throw new XrsimInputError(`${where} must be a list of flags, got ${JSON.stringify(flags)}`, { expected: "flags such as ['--max-old-space-size=8192']" });
  for (const flag of flags) {
    if (typeof flag !== 'string' || !FLAG.test(flag)) throw new XrsimInputError(`${where}: ${JSON.stringify(flag)} is not a --flag or --flag=value option`, { expected: 'options such as --single-threaded-gc or --max-old-space-size=8192' });
  }
  return [...flags];
}

/** Environment variable with the session workers' heap limit, MB, for every pool that is not given its own. */
export const WORKER_HEAP_MB_ENV = 'XRSIM_WORKER_HEAP_MB';

/**
 * The default heap limit of a session worker, MB: far above any suite session (well under 300 MB), low
 * enough that an app that allocates without end is stopped before it takes a developer's machine.
 */
export const DEFAULT_WORKER_HEAP_MB = 4096;

/**
 * A pool's heap limit per worker, MB: `requested` (a pool's `workerHeapMb`) if given, else the
 * {@link WORKER_HEAP_MB_ENV} variable, else {@link DEFAULT_WORKER_HEAP_MB}. Throws {@link XrsimInputError}
 * for anything but a whole number from 64 to 1,048,576.
 */
export function resolveWorkerHeapMb(requested?: number, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env[WORKER_HEAP_MB_ENV];
  const where = requested !== undefined ? 'workerHeapMb' : WORKER_HEAP_MB_ENV;
  const value = requested ?? (fromEnv === undefined || fromEnv === '' ? DEFAULT_WORKER_HEAP_MB : Number(fromEnv));
  if (!(Number.isInteger(value) && value >= 64 && value <= 1_048_576)) {
    throw new XrsimInputError(`${where} must be a whole number of MB from 64 to 1048576, got ${JSON.stringify(requested ?? fromEnv)}`, { expected: 'megabytes, such as 4096' });
  }
  return value;
}
