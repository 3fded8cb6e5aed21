/**
 * The failure modes an adversarial app stands for. They are the categories of the GenXR-Bench paper's failure
 * analysis (the mistakes coding agents made most often when writing XR apps); every adversarial app in a task
 * names one, and the suite covers each with at least two apps (docs/TASKS.md has the table).
 */

/** Failure categories, with what each means. */
export const FAILURE_CATEGORIES = {
  'late-sensing': 'Startup races and late sensing: reading hands, planes or depth before they exist, only once at startup, or frames behind.',
  'coordinate-frame': 'Coordinate-frame errors: comparing positions in different frames, anchoring to the wrong joint, ignoring where the head or hand points.',
  'hand-asymmetry': 'Hand asymmetry: accepting either hand interchangeably, or telling the hands apart by anything but their handedness.',
  'boolean-touch': 'Touch as a boolean: contact, pinch or dwell read as a one-off yes/no (a box overlap, a frame count, a latch) instead of a continuous quantity with hysteresis.',
  ergonomics: 'Ergonomics: content out of reach, behind the user, locked to the head, or at the wrong scale.',
} as const;

/** A failure category id. */
export type FailureCategory = keyof typeof FAILURE_CATEGORIES;

/** Category ids, in the order above. */
export const FAILURE_CATEGORY_IDS = Object.keys(FAILURE_CATEGORIES) as FailureCategory[];
