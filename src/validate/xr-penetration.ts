/**
 * `penetration`: how deep a sphere around a subject (a virtual ball) sinks into the physical surfaces, as
 * they are at each frame (surfaces added or moved while running included). Metric: the deepest, metres.
 */
import { PrimitiveKind } from '../../kernels/scene-geometry.js';
import { signedDistance } from '../../kernels/sdf.js';
import { RecordedScene } from '../sensing/recorded-scene.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { inWindow, subject, type ValidatorContext } from './xr-context.js';

/** How deep a sphere around a subject sinks into the scene's surfaces (as they are then). Metric: metres. */
export const penetration = defineFormula({
  type: 'penetration',
  description: 'How deep a sphere around a subject sinks into the physical surfaces as they are at each frame. Metric: metres (the deepest).',
  options: {
    subject: schema.subject,
    radius: { type: 'number', exclusiveMinimum: 0 },
    window: schema.window,
    graceAfterChange: {
      type: 'number',
      minimum: 0,
      description:
        'Seconds after a surface is added, moved or removed in which the sphere is not measured: an app knows of the change only once its sensors show it (a depth frame arrives every 1/rateHz s).',
    },
  },
  required: ['subject', 'radius'],
  frameState: true,
  create: (spec, ctx): Validator => penetrationValidator(spec, ctx),
});
/** The options of `penetration`. */
export type PenetrationValidatorSpec = SpecOf<typeof penetration>;

/** Creates a `penetration` validator. */
export function penetrationValidator(spec: PenetrationValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  // Only static surfaces are measured against (bodies and hands are not surfaces a ball sinks into).
  const scene = new RecordedScene(ctx.model, true);
  const normal = new Float64Array(3);
  const owner = new Int32Array(1);
  let deepest = 0;
  let tick = -1;
  let samples = 0;
  let current: number | null = null;
  let changedAt = -Infinity;
  return {
    trace: () => current,
    observe(frame) {
      if (scene.advance(frame)) changedAt = frame.time;
      current = null;
      if (!inWindow(frame.time, spec.window)) return;
      if (frame.time - changedAt < (spec.graceAfterChange ?? 0)) return;
      const p = read(frame);
      if (!p) return;
      samples++;
      const d = signedDistance(scene.geometry, PrimitiveKind.Static, p.position[0], p.position[1], p.position[2], spec.radius + 0.5, normal, owner);
      const depth = spec.radius - d;
      current = depth;
      if (depth > deepest) [deepest, tick] = [depth, frame.tick];
    },
    finish() {
      return scoreMilestones('penetration', spec.milestones, samples > 0 ? deepest : Infinity, 'atMost', tick >= 0 ? [tick] : []);
    },
  };
}
