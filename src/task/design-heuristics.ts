/**
 * The ids of the design heuristics (`src/design/`), here because a task's app entry names the one an app is
 * built to violate (`designFlaw`), and file formats are below the design layer.
 */

/** The heuristics a formula rates, in the order reports list them. */
export const DESIGN_HEURISTIC_IDS = [
  'reach-comfort',
  'neck-rotation',
  'angular-size',
  'viewing-distance',
  'behind-or-below',
  'hand-locked-stability',
  'inside-surfaces',
  'motion-comfort',
  'response-latency',
  'interaction-feedback',
] as const;

/** One of {@link DESIGN_HEURISTIC_IDS}. */
export type DesignHeuristicId = (typeof DESIGN_HEURISTIC_IDS)[number];
