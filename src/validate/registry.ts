/**
 * The validator formulas a task can name, and the function that instantiates a model's validators.
 */
import type { SimModel } from '../model/types.js';
import type { ValidatorSpec } from '../task/types.js';
import { checkpointsValidator } from './checkpoints.js';
import { contactValidator } from './contact.js';
import { driftValidator } from './drift.js';
import { finalDistanceValidator } from './final-distance.js';
import { regionValidator } from './region.js';
import { settleValidator } from './settle.js';
import type { Milestone, Validator } from './types.js';
import type { Handedness } from '../session/spec.js';
import { FrameState } from './frame-state.js';
import { failOnNonFinite } from './finite-guard.js';
import type { ValidatorContext } from './xr-context.js';
import { displacementValidator, distanceAtValidator, followValidator, presenceValidator, rmsValidator, speedValidator } from './xr-motion.js';
import { comfortValidator, overlapValidator, visibleValidator } from './xr-perception.js';
import { eventCountValidator, eventOrderValidator, pressesValidator } from './xr-events.js';
import { coverageValidator, reachabilityValidator } from './xr-space.js';
import { penetrationValidator } from './xr-penetration.js';

/** Formulas over bodies and physics events only: they need no decoded frame state. */
const PHYSICS_FORMULAS = new Set(['checkpoints', 'settle', 'drift', 'final-distance', 'contact', 'region']);

/** Creates one validator for a spec. */
export function createValidator(spec: ValidatorSpec, ctx: ValidatorContext): Validator {
  const { model } = ctx;
  switch (spec.type) {
    case 'checkpoints':
      return checkpointsValidator(spec, model);
    case 'settle':
      return settleValidator(spec, model);
    case 'drift':
      return driftValidator(spec, model);
    case 'final-distance':
      return finalDistanceValidator(spec, model);
    case 'contact':
      return contactValidator(spec, model);
    case 'region':
      return regionValidator(spec, model);
    case 'displacement':
      return displacementValidator(spec, ctx);
    case 'rms':
      return rmsValidator(spec, ctx);
    case 'follow':
      return followValidator(spec, ctx);
    case 'distance-at':
      return distanceAtValidator(spec, ctx);
    case 'speed':
      return speedValidator(spec, ctx);
    case 'presence':
      return presenceValidator(spec, ctx);
    case 'comfort':
      return comfortValidator(spec, ctx);
    case 'visible':
      return visibleValidator(spec, ctx);
    case 'overlap':
      return overlapValidator(spec, ctx);
    case 'presses':
      return pressesValidator(spec, ctx);
    case 'event-count':
      return eventCountValidator(spec, ctx);
    case 'event-order':
      return eventOrderValidator(spec, ctx);
    case 'coverage':
      return coverageValidator(spec, ctx);
    case 'reachability':
      return reachabilityValidator(spec, ctx);
    case 'penetration':
      return penetrationValidator(spec, ctx);
  }
}

/**
 * All of a model's validators, as one. Milestones come out in the task's order. The frame state (tags,
 * app and input events) is decoded once per frame for all of them, and only when the task has an XR
 * formula (physics tasks pay nothing for it). A non-finite value in a frame fails every milestone
 * (`finite-guard.ts`).
 */
export function createTaskValidators(model: SimModel, dominantHand: Handedness = 'right'): Validator {
  const ctx: ValidatorContext = { model, dominantHand, state: new FrameState() };
  const validators = model.validators.map((spec) => createValidator(spec, ctx));
  const decode = model.validators.some((spec) => !PHYSICS_FORMULAS.has(spec.type));
  return failOnNonFinite(
    {
      observe(frame) {
        if (decode) ctx.state.observe(frame);
        for (const v of validators) v.observe(frame);
      },
      finish(): Milestone[] {
        return validators.flatMap((v) => v.finish());
      },
    },
    decode ? ctx.state : null,
  );
}
