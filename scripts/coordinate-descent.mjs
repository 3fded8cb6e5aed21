// Coordinate descent with a shrinking step, for the pose fits (fit-pinch.mjs, fit-poses.mjs).
// `free` lists [name, axis, min, max, start] per variable; `cost(x)` is minimised within [min, max].
export function coordinateDescent(free, cost, { minStep = 0.01, rounds = 200 } = {}) {
  let best = free.map((f) => f[4]);
  let bestCost = cost(best);
  for (let step = 8; step > minStep; step /= 2) {
    for (let round = 0; round < rounds; round++) {
      let improved = false;
      for (let k = 0; k < free.length; k++) {
        for (const delta of [-step, step]) {
          const x = best.slice();
          x[k] = Math.min(free[k][3], Math.max(free[k][2], x[k] + delta));
          const c = cost(x);
          if (c < bestCost - 1e-12) {
            bestCost = c;
            best = x;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  }
  return best;
}
