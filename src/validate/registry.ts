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

/** Creates one validator for a spec. */
export function createValidator(spec: ValidatorSpec, model: SimModel): Validator {
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
  }
}

/** All of a model's validators, as one. Milestones come out in the task's order. */
export function createTaskValidators(model: SimModel): Validator {
  const validators = model.validators.map((spec) => createValidator(spec, model));
  return {
    observe(frame) {
      for (const v of validators) v.observe(frame);
    },
    finish(): Milestone[] {
      return validators.flatMap((v) => v.finish());
    },
  };
}
