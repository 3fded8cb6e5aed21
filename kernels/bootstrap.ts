/**
 * A stratified, paired bootstrap of column means, on typed arrays, allocating nothing per resample.
 *
 * `values` holds `columns` numbers per row (row-major): a row is one unit (a session), a column one quantity
 * (a candidate's score under a metric). Rows are grouped in strata (tasks): stratum k is rows
 * `starts[k] .. starts[k] + counts[k] - 1`. Each resample redraws, within every stratum, as many rows as it
 * has, with replacement; the same draws serve every column (paired). A resample's value for a column is the
 * mean over strata of the stratum's mean of the drawn rows, so each stratum weighs the same.
 */
import type { Sfc32 } from './prng.js';

/**
 * Fills `out` (resamples × columns, row-major) with the resampled means. `sums` is scratch of `columns`
 * numbers.
 */
export function stratifiedBootstrap(
  values: Float64Array,
  columns: number,
  starts: Int32Array,
  counts: Int32Array,
  resamples: number,
  random: Sfc32,
  out: Float64Array,
  sums: Float64Array,
): void {
  const strata = starts.length;
  out.fill(0, 0, resamples * columns);
  for (let r = 0; r < resamples; r++) {
    const row = r * columns;
    for (let k = 0; k < strata; k++) {
      const start = starts[k];
      const count = counts[k];
      sums.fill(0, 0, columns);
      for (let i = 0; i < count; i++) {
        const at = (start + Math.floor((random.nextU32() * count) / 4294967296)) * columns;
        for (let c = 0; c < columns; c++) sums[c] += values[at + c];
      }
      for (let c = 0; c < columns; c++) out[row + c] += sums[c] / count;
    }
    for (let c = 0; c < columns; c++) out[row + c] /= strata;
  }
}
