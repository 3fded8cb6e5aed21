/**
 * The formula registry: every validator formula a task can name, each declared once (`defineFormula`, in
 * its own file), and the functions that instantiate a model's validators. The task schema's validator
 * branches (`schema.ts`), the loader's reference checks (through the schema) and the {@link ValidatorSpec}
 * union all derive from this list. To add a formula, see docs/TASKS.md.
 */
import { XrsimInputError } from '../errors.js';
import type { Handedness } from '../hand/side.js';
import type { SimModel } from '../model/types.js';
import type { ValidatorSpecBase } from '../task/types.js';
import { checkpoints } from './checkpoints.js';
import { contact } from './contact.js';
import { drift } from './drift.js';
import { finalDistance } from './final-distance.js';
import type { Formula, SpecOf } from './formula.js';
import { FrameState } from './frame-state.js';
import { failOnNonFinite } from './finite-guard.js';
import { region } from './region.js';
import { applyRequirements } from './requirements.js';
import { settle } from './settle.js';
import type { Milestone, Validator } from './types.js';
import type { ValidatorContext } from './xr-context.js';
import { eventCount, eventOrder, presses } from './xr-events.js';
import { displacement, distanceAt, follow, presence, rms, speed } from './xr-motion.js';
import { penetration } from './xr-penetration.js';
import { comfort, overlap, visible } from './xr-perception.js';
import { coverage, reachability } from './xr-space.js';
import { resolveMilestoneMoments, visual } from './visual.js';
import { soundFollows, soundResponse, voices } from './xr-audio.js';

/** Every formula, in the order the task schema lists them. */
export const FORMULAS = [
  checkpoints,
  settle,
  drift,
  finalDistance,
  contact,
  region,
  displacement,
  rms,
  follow,
  distanceAt,
  comfort,
  visible,
  presses,
  eventCount,
  eventOrder,
  coverage,
  overlap,
  reachability,
  presence,
  speed,
  penetration,
  visual,
  soundResponse,
  voices,
  soundFollows,
] as const;

/** Any validator a task can list: the union of every formula's spec. */
export type ValidatorSpec = SpecOf<(typeof FORMULAS)[number]>;

const BY_TYPE = new Map<string, Formula>(FORMULAS.map((formula) => [formula.type, formula as unknown as Formula]));

/** The formula a task names by `type`, or undefined. */
export function formulaNamed(type: string): Formula | undefined {
  return BY_TYPE.get(type);
}

/**
 * Creates one validator for a spec (validated by the task loader against the schema the registry wrote).
 * Throws `XrsimInputError` for an unknown formula, or for options that name something not in the model.
 */
export function createValidator(spec: ValidatorSpec | ValidatorSpecBase, ctx: ValidatorContext): Validator {
  const formula = formulaNamed(spec.type);
  if (!formula) throw new XrsimInputError(`unknown validator formula "${spec.type}"`, { expected: `one of: ${[...BY_TYPE.keys()].join(', ')}` });
  return formula.create(spec as never, ctx);
}

/** Options of {@link createTaskValidators}. */
export interface TaskValidatorOptions {
  /** The frame state to decode each frame into (default: one of their own), for other observers of the same frames. */
  state?: FrameState;
  /** Decode the frame state every frame even when no formula reads it (another observer does). */
  decode?: boolean;
}

/**
 * All of a model's validators, as one. Milestones come out in the task's order. The frame state (tags,
 * app and input events) is decoded once per frame for all of them, and only when a formula reads it
 * (physics tasks pay nothing for it). A milestone passes only when the milestones it `requires` passed
 * (`requirements.ts`). A non-finite value in a frame fails every milestone (`finite-guard.ts`).
 */
export function createTaskValidators(model: SimModel, dominantHand: Handedness = 'right', options: TaskValidatorOptions = {}): Validator {
  const ctx: ValidatorContext = { model, dominantHand, state: options.state ?? new FrameState() };
  const validators = model.validators.map((spec) => createValidator(spec, ctx));
  const decode = options.decode === true || model.validators.some((spec) => formulaNamed(spec.type)?.frameState);
  return failOnNonFinite(
    {
      observe(frame) {
        if (decode) ctx.state.observe(frame);
        for (const v of validators) v.observe(frame);
      },
      finish(): Milestone[] {
        const specs = model.validators.flatMap((spec) => spec.milestones);
        const own = validators.map((v) => v.finish());
        // `visual` moments that name a milestone resolve against the others, scored and settled.
        const settled = new Map(applyRequirements(own.flat(), specs).map((m) => [m.id, m]));
        return applyRequirements(
          own.flatMap((milestones, i) => resolveMilestoneMoments(model.validators[i], milestones, settled)),
          specs,
        );
      },
    },
    decode ? ctx.state : null,
  );
}
