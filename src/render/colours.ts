/**
 * Flat colours for point-of-view images: a hue per semantic label (and one each for dynamic props and
 * hands), with a lightness step per object so neighbouring surfaces of one label stay distinguishable.
 * Image-based judges can map a colour back to its label.
 */
import { SEMANTIC_LABELS, type SemanticLabel } from '../geometry/types.js';
import type { PrimitiveLook } from '../sensing/recorded-scene.js';

/** Base colours, RGB 0–255. */
export const LABEL_COLOURS: Record<SemanticLabel | 'prop' | 'hand', [number, number, number]> = {
  floor: [150, 120, 90],
  wall: [200, 200, 190],
  ceiling: [235, 235, 235],
  table: [160, 82, 45],
  desk: [139, 90, 43],
  couch: [70, 90, 160],
  shelf: [120, 100, 70],
  door: [110, 70, 40],
  window: [150, 200, 240],
  bed: [180, 140, 180],
  screen: [30, 30, 40],
  lamp: [250, 220, 120],
  plant: [60, 150, 60],
  other: [128, 128, 128],
  prop: [220, 60, 60],
  hand: [240, 190, 160],
};

/** The colour of object number `index` of a label: the base colour, lighter or darker by a step. */
export function objectColour(label: keyof typeof LABEL_COLOURS, index: number): [number, number, number] {
  const base = LABEL_COLOURS[label] ?? LABEL_COLOURS.other;
  const step = ((index % 5) - 2) * 10;
  return [clamp(base[0] + step), clamp(base[1] + step), clamp(base[2] + step)];
}

const clamp = (v: number) => Math.max(0, Math.min(255, v));

/** Labels in colour-table order (for legends). */
export const COLOUR_LEGEND = [...SEMANTIC_LABELS, 'prop', 'hand'] as const;

/**
 * The colour of each primitive of a recorded scene, from what it shows; computed once per primitive (a
 * primitive never changes what it shows, and surfaces added later get new primitives).
 */
export function primitiveColours(scene: { lookOf(primitive: number): PrimitiveLook }): (primitive: number) => readonly number[] {
  const colours: (readonly number[])[] = [];
  return (primitive) => {
    const look = scene.lookOf(primitive);
    return (colours[primitive] ??= objectColour(look.label, look.index));
  };
}
