/**
 * The ten design heuristics: what each measures, its unit and the bands that turn its metric into a 1–5
 * rating. The numbers come from published XR design guidance where there is one (each cited beside its
 * band, in full in docs/TASKS.md, "Design score"); where guidance gives a limit but no scale, the bands
 * between the limits are ours and the docs say so.
 */
import type { DesignHeuristicId, Likert } from './types.js';

/** How a metric maps to a rating: at or past `cuts[0]` is 5, `cuts[1]` 4, `cuts[2]` 3, `cuts[3]` 2, beyond 1. */
export interface Bands {
  better: 'lower' | 'higher';
  cuts: readonly [number, number, number, number];
}

/** A heuristic's definition. */
export interface HeuristicDefinition {
  id: DesignHeuristicId;
  title: string;
  unit: string;
  bands: Bands;
}

/** The heuristics, in report order (the order of `DESIGN_HEURISTIC_IDS`). */
export const HEURISTICS: readonly HeuristicDefinition[] = [
  // Wrist extension over arm length when the hand touches content or strains for content out of reach.
  // Microsoft's direct-interaction distance (45 cm from the eyes) needs about 0.7 of a medium arm.
  { id: 'reach-comfort', title: 'Reach comfort of interactive content', unit: 'of arm length', bands: { better: 'lower', cuts: [0.8, 0.9, 1.0, 1.15] } },
  // Degrees outside the comfortable zone: ±30° of yaw from the gaze (Meta Company AR ergonomics), 10° above to
  // 35° below the horizon (Microsoft comfort). 15° past it is Microsoft's 45° neck limit; 25° its 60° down.
  { id: 'neck-rotation', title: 'Neck rotation needed', unit: '° past the comfortable zone', bands: { better: 'lower', cuts: [5, 15, 25, 40] } },
  // The smallest visible extent over its minimum: 2° for touched targets, 1° for others (Microsoft
  // interactable objects), 0.65° for text (Microsoft typography, comfortable); 0.5° and 0.35° are its minimums.
  // Content wider than 94° (Alger's comfortable UI canvas) counts as 94° over its width.
  { id: 'angular-size', title: 'Angular size of UI and text', unit: 'of the minimum', bands: { better: 'higher', cuts: [1, 0.75, 0.54, 0.35] } },
  // Distance over the comfortable range: 0.75–5 m for content to view (Oculus, Android XR), from 0.4 m
  // (Microsoft's fade distance) for content within arm's reach. 0.8 of 0.4 m is Microsoft's 0.3 m clipping plane.
  { id: 'viewing-distance', title: 'Distance of content from the eyes', unit: 'of the comfortable range', bands: { better: 'higher', cuts: [1, 0.8, 0.6, 0.4] } },
  // Degrees past the front zone: within 90° of the gaze, and no lower than 60° below the horizon (Microsoft).
  { id: 'behind-or-below', title: 'Content placed behind or below the user', unit: '° past the front zone', bands: { better: 'lower', cuts: [0.5, 15, 30, 60] } },
  // RMS wobble of hand-locked content in the hand's frame: 2 mm is Meta's touch release distance, 5 mm its
  // poke sphere, 8 mm half of Microsoft's smallest direct target, 16 mm all of it.
  { id: 'hand-locked-stability', title: 'Hand-locked content stability', unit: 'mm', bands: { better: 'lower', cuts: [2, 5, 8, 16] } },
  // The deepest sustained (0.1 s) sinking of content into a physical surface. Guidance says none; the bands are ours.
  { id: 'inside-surfaces', title: 'Content inside surfaces', unit: 'cm', bands: { better: 'lower', cuts: [1, 2, 5, 10] } },
  // The share of head turns that drag content along (head-locked: Microsoft, Daydream) or of still moments in
  // which large content moves the view on its own. The bands are ours.
  { id: 'motion-comfort', title: 'Motion comfort (content moving the view)', unit: 'of the time', bands: { better: 'lower', cuts: [0.05, 0.1, 0.25, 0.5] } },
  // The median time from an input to a response the user can perceive: 0.1 s feels instantaneous (Nielsen).
  { id: 'response-latency', title: 'Response latency to input', unit: 's', bands: { better: 'lower', cuts: [0.1, 0.2, 0.4, 0.7] } },
  // The share of inputs answered within 1 s (Nielsen's limit for an uninterrupted flow of thought) by a change
  // the user can perceive: content appearing, vanishing, moving or resizing, or a sound.
  { id: 'interaction-feedback', title: 'Feedback on interaction', unit: 'of inputs answered', bands: { better: 'higher', cuts: [0.95, 0.8, 0.6, 0.3] } },
];

/** The definition of a heuristic. */
export function heuristic(id: DesignHeuristicId): HeuristicDefinition {
  return HEURISTICS.find((h) => h.id === id)!;
}

/** The rating a metric earns under `bands`. A non-finite metric earns 1. */
export function rate(metric: number, bands: Bands): Likert {
  if (!Number.isFinite(metric)) return 1;
  for (let k = 0; k < 4; k++) {
    const cut = bands.cuts[k];
    if (bands.better === 'lower' ? metric <= cut : metric >= cut) return (5 - k) as Likert;
  }
  return 1;
}
