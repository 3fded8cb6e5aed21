/**
 * XR formulas on space: coverage ratios and graph reachability.
 */
import { castRay } from '../../kernels/ray-intersect.js';
import type { Vec3 } from '../geometry/types.js';
import { buildSceneGeometry } from '../sensing/scene-geometry.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { inWindow, pointOrSubject, subject, taskPoint, type ValidatorContext } from './xr-context.js';

/** Coverage ratio: the fraction of task-frame points that a subject's path came within `radius` of. */
export const coverage = defineFormula({
  type: 'coverage',
  description: 'Coverage ratio: the fraction of task-frame points a subject\'s path came within `radius` of.',
  options: {
    subject: schema.subject,
    points: { type: 'array', minItems: 1, items: schema.vec3 },
    radius: { type: 'number', exclusiveMinimum: 0 },
    window: schema.window,
  },
  required: ['subject', 'points', 'radius'],
  frameState: true,
  create: (spec, ctx): Validator => coverageValidator(spec, ctx),
});
/** The options of `coverage`. */
export type CoverageValidatorSpec = SpecOf<typeof coverage>;

/**
 * Graph reachability: nodes are task-frame points or subjects at the end of the run; two nodes connect
 * when they are within `maxStep` of each other with no static surface between. Metric: hops on the
 * shortest path from `from` to `to` (never reached: no metric).
 */
export const reachability = defineFormula({
  type: 'reachability',
  description: 'Graph reachability among task-frame points and subjects at the end: hops on the shortest path from node `from` to node `to`, linking nodes within maxStep with no static surface between.',
  options: {
    nodes: { type: 'array', minItems: 2, items: { oneOf: [schema.subject, schema.vec3] } },
    from: { type: 'integer', minimum: 0 },
    to: { type: 'integer', minimum: 0 },
    maxStep: { type: 'number', exclusiveMinimum: 0 },
  },
  required: ['nodes', 'from', 'to', 'maxStep'],
  frameState: true,
  create: (spec, ctx): Validator => reachabilityValidator(spec, ctx),
});
/** The options of `reachability`. */
export type ReachabilityValidatorSpec = SpecOf<typeof reachability>;

/** `coverage`: the fraction of task-frame points a subject's path came within `radius` of. */
export function coverageValidator(spec: CoverageValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const points = spec.points.map((p) => taskPoint(ctx, p));
  const covered = new Uint8Array(points.length);
  const ticks: number[] = [];
  return {
    trace: () => (points.length ? covered.reduce((a, b) => a + b, 0) / points.length : null),
    observe(frame) {
      if (!inWindow(frame.time, spec.window)) return;
      const p = read(frame);
      if (!p) return;
      points.forEach((q, k) => {
        if (covered[k] === 0 && Math.hypot(p.position[0] - q[0], p.position[1] - q[1], p.position[2] - q[2]) <= spec.radius) {
          covered[k] = 1;
          ticks.push(frame.tick);
        }
      });
    },
    finish() {
      const ratio = points.length === 0 ? Infinity : covered.reduce((a, b) => a + b, 0) / points.length;
      return scoreMilestones('coverage', spec.milestones, ratio, 'atLeast', ticks);
    },
  };
}

/** `reachability`: hops on the shortest path between two nodes of a proximity graph, at the end of the run. */
export function reachabilityValidator(spec: ReachabilityValidatorSpec, ctx: ValidatorContext): Validator {
  const readers = spec.nodes.map((n) => pointOrSubject(ctx, n));
  const geometry = buildSceneGeometry(ctx.model).geometry;
  let last: (Vec3 | null)[] = readers.map(() => null);
  let tick = -1;
  return {
    observe(frame) {
      last = readers.map((r) => r(frame)?.position ?? null);
      tick = frame.tick;
    },
    finish() {
      const linked = (a: Vec3, b: Vec3) => {
        const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        const length = Math.hypot(d[0], d[1], d[2]);
        if (length > spec.maxStep) return false;
        return length < 1e-9 || castRay(geometry, 1, a[0], a[1], a[2], d[0] / length, d[1] / length, d[2] / length, 1e-6) >= length;
      };
      const hops = new Array<number>(last.length).fill(Infinity);
      hops[spec.from] = last[spec.from] ? 0 : Infinity;
      const queue = last[spec.from] ? [spec.from] : [];
      while (queue.length > 0) {
        const i = queue.shift()!;
        last.forEach((p, j) => {
          if (p && hops[j] === Infinity && linked(last[i]!, p)) {
            hops[j] = hops[i] + 1;
            queue.push(j);
          }
        });
      }
      return scoreMilestones('reachability', spec.milestones, hops[spec.to], 'atMost', tick >= 0 ? [tick] : []);
    },
  };
}
