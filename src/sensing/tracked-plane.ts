/**
 * A candidate plane as plane detection tracks it (see `planes.ts`): where it lies, and the grid of cells
 * over its face that the depth camera has seen.
 */
import { FRAME_STATS } from '../../kernels/plane-observe-asm.js';
import type { SemanticLabel } from '../geometry/types.js';
import type { PlaneCandidate } from './plane-candidates.js';

/** WebXR's plane orientations. */
export type PlaneOrientation = 'horizontal' | 'vertical' | null;

/** A detected plane, as apps see it. The same object is kept (and updated) while the plane persists. */
export interface DetectedPlane {
  /** Stable id, unique in the session. */
  readonly id: number;
  /** The surface it belongs to: its static index (scene surfaces and task fixtures, then runtime surfaces). */
  readonly surface: number;
  semanticLabel: SemanticLabel;
  orientation: PlaneOrientation;
  /** World pose of the plane's space: position, quaternion; its Y axis is the surface normal. */
  readonly pose: Float64Array;
  /** Outline in plane space (y = 0), counter-clockwise seen from +Y. */
  polygon: { x: number; y: number; z: number; w: number }[];
  /** Tick (on the simulation clock) of the last change of an attribute. */
  lastChangedTick: number;
}

/** A candidate plane and what has been seen of it. */
export interface TrackedPlane {
  id: number;
  surface: number;
  candidate: PlaneCandidate;
  /** Plane space in the world: origin and axes. */
  origin: Float64Array;
  axes: Float64Array;
  pose: Float64Array;
  orientation: PlaneOrientation;
  /** The observation grid over the polygon's bounding rectangle. */
  minX: number;
  minZ: number;
  cols: number;
  rows: number;
  /** Cells seen so far (which ones: the detector's pooled grids, `kernels/plane-observe.ts`), out of those inside the face. */
  seenCells: number;
  insideCells: number;
  /** Seen bounds in cells: min column, max column, min row, max row. */
  bounds: Float64Array;
  /** Time the seen area first sufficed, or null. */
  qualifiedAt: number | null;
  detected: DetectedPlane | null;
  /** Whether the reported polygon is the whole face, and otherwise the seen bounds it was clipped to. */
  full: boolean;
  reportedBounds: Float64Array;
  removed: boolean;
  /** Changes found by the last observation, reported by the next update. */
  pendingFlags: number;
  /** Whether cells were newly seen since the last update. */
  grown: boolean;
}

/** A plane with nothing seen yet, over a grid of `cols` × `rows` cells from (minX, minZ). */
export function newTrackedPlane(id: number, surface: number, candidate: PlaneCandidate, minX: number, minZ: number, cols: number, rows: number, insideCells: number): TrackedPlane {
  return {
    id,
    surface,
    candidate,
    origin: new Float64Array(3),
    axes: new Float64Array(9),
    pose: new Float64Array(7),
    orientation: null,
    minX,
    minZ,
    cols,
    rows,
    seenCells: 0,
    insideCells: Math.max(1, insideCells),
    bounds: Float64Array.of(Infinity, -Infinity, Infinity, -Infinity),
    qualifiedAt: null,
    detected: null,
    full: false,
    reportedBounds: new Float64Array(4),
    removed: false,
    pendingFlags: 0,
    grown: false,
  };
}

/** Counts cell (c, r), just marked in `seen`, as seen: the seen area, its bounds. */
export function countSeen(plane: TrackedPlane, c: number, r: number): void {
  plane.seenCells++;
  plane.grown = true;
  const b = plane.bounds;
  if (c < b[0]) b[0] = c;
  if (c > b[1]) b[1] = c;
  if (r < b[2]) b[2] = r;
  if (r > b[3]) b[3] = r;
}

/** Counts the cells `plane` newly saw in a frame, as the kernel tallied them in `frameStats` (see `ObservationHeap`). */
export function countSeenInFrame(plane: TrackedPlane, frameStats: Int32Array): void {
  const o = plane.id * FRAME_STATS;
  if (frameStats[o] === 0) return;
  plane.seenCells += frameStats[o];
  plane.grown = true;
  const b = plane.bounds;
  if (frameStats[o + 1] < b[0]) b[0] = frameStats[o + 1];
  if (frameStats[o + 2] > b[1]) b[1] = frameStats[o + 2];
  if (frameStats[o + 3] < b[2]) b[2] = frameStats[o + 3];
  if (frameStats[o + 4] > b[3]) b[3] = frameStats[o + 4];
}
