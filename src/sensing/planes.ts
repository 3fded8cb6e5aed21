/**
 * Plane detection, as a headset does it: over time, from what its depth camera has seen.
 *
 * Each labelled surface with a large enough face has one candidate plane (see `plane-candidates.ts`). Every
 * depth frame marks the cells of a per-plane grid that the camera saw unoccluded and within range (the
 * rasterizer's per-pixel face ids say which face a pixel shows; every other pixel of every other row). Once the seen area reaches
 * `min(minSeenArea, half the plane)`, the plane is reported `latency` seconds later. Its polygon is the seen
 * region's bounding rectangle clipped to the face, and snaps to the full face once `completeFraction` of it
 * has been seen. A plane never seen is never reported; a surface added while the session runs starts unseen.
 *
 * `lastChangedTime` (a tick here) moves when an attribute changes: the polygon, the orientation or the
 * label. Moving a surface changes the plane's pose only, and that alone does not move `lastChangedTime`.
 */
import { faceId, FACES_PER_PRIMITIVE, type DepthRaster, type RasterCamera } from '../../kernels/depth-raster.js';
import { observeLattice, setSeenBit, type LatticeFrame, type PlaneGrids } from '../../kernels/plane-observe.js';
import { LatticeCull, observeLive } from '../../kernels/plane-cull.js';
import { ObservationHeap } from '../../kernels/plane-observe-asm.js';
import { emptyGrids, frameBounds, frameCoefficients, poolGrids } from './plane-grids.js';
import { countSeen, countSeenInFrame, newTrackedPlane, type DetectedPlane, type PlaneOrientation, type TrackedPlane } from './tracked-plane.js';
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import { EventType, PLANE_ORIENTATIONS, POSE_WORDS } from '../frame/events.js';
import { quatAxes, quatFromAxes } from '../geometry/math.js';
import type { Frame } from '../frame/frame.js';
import { SEMANTIC_LABELS, type SemanticLabel, type Vec3 } from '../geometry/types.js';
import { choosePlane, HORIZONTAL_COS, VERTICAL_SIN, type PlaneCandidate } from './plane-candidates.js';
import { directionToWorld } from './scene-geometry.js';
import type { PlaneDetectionModel } from '../task/sensing-options.js';

export type { DetectedPlane, PlaneOrientation } from './tracked-plane.js';

/** Pixels observed: every OBSERVATION_STRIDE-th of every OBSERVATION_STRIDE-th row. */
export const OBSERVATION_STRIDE = 2;

/** Flags of a PlaneUpdated record. */
export const PlaneChange = { Attributes: 1, Pose: 2 } as const;

/** The plane detector of one session. */
export class PlaneDetector {
  private readonly planes: TrackedPlane[] = [];
  /**
   * For tests and benchmarks: observe every pixel of the lattice with the JavaScript reference loop
   * (`observeLattice`), not the asm.js kernel (`kernels/plane-observe-asm.ts`) over only the tiles that can
   * still see an unseen cell (`kernels/plane-cull.ts`). Both mark the same cells.
   */
  static wholeLattice = false;
  /** Every plane's grid and, for the frame being observed, coefficients; the face map lists the planes that can still grow. */
  private grids = emptyGrids();
  /** The planes that can still grow, for the frame being observed. */
  private active = new Int32Array(0);
  private readonly cull = new LatticeCull();
  /** The kernel's heap: the frame being observed and the grids' arrays it reads live there. */
  private readonly heap = new ObservationHeap();
  /** The frame being observed, as the kernels read it (filled in place each frame). */
  private readonly frame: LatticeFrame = { width: 0, height: 0, stride: OBSERVATION_STRIDE, depth: new Float32Array(0), ids: new Int32Array(0), rayX: new Float64Array(0), rayY: new Float64Array(0), minRange: 0, maxRange: 0 };
  /** Whether anything was seen, moved, added or removed since the last update. */
  private changed = true;
  /** The earliest time a qualified plane is due to be reported. */
  private nextReport = Infinity;
  /** Cells newly seen by the frame being observed with the reference loop: plane, cell. */
  private newCells = new Int32Array(0);
  /** How many planes the face map lists (those that can still grow). */
  private observed = 0;
  /** Detected planes by id, in detection order. */
  readonly detected = new Map<number, DetectedPlane>();

  constructor(
    readonly model: PlaneDetectionModel,
    private readonly geometry: SceneGeometry,
    private readonly roomCentre: Vec3,
  ) {}

  /** Registers a surface; gives it a plane if it has a face large enough. Returns the plane's id or null. */
  addSurface(surface: number, primitives: readonly number[], label: SemanticLabel): number | null {
    const candidate = choosePlane(this.geometry, primitives, label, this.roomCentre, this.model.minPlaneArea);
    if (!candidate) return null;
    const { cellSize } = this.model;
    const xs = candidate.polygon.map((p) => p[0]);
    const zs = candidate.polygon.map((p) => p[1]);
    const minX = Math.min(...xs);
    const minZ = Math.min(...zs);
    const cols = Math.max(1, Math.ceil((Math.max(...xs) - minX) / cellSize - 1e-9));
    const rows = Math.max(1, Math.ceil((Math.max(...zs) - minZ) / cellSize - 1e-9));
    let insideCells = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) if (insideConvex(candidate.polygon, minX + (c + 0.5) * cellSize, minZ + (r + 0.5) * cellSize)) insideCells++;
    }
    const plane = newTrackedPlane(this.planes.length, surface, candidate, minX, minZ, cols, rows, insideCells);
    this.planes.push(plane);
    this.grids = poolGrids(this.planes, this.grids);
    if (this.active.length < this.planes.length) this.active = new Int32Array(2 * this.planes.length);
    this.placePlane(plane);
    this.rebuildFaceMap();
    return plane.id;
  }

  /** A surface moved (its primitives already re-posed): its plane follows. */
  surfaceMoved(surface: number): void {
    for (const plane of this.planes) {
      if (plane.surface !== surface || plane.removed) continue;
      const before = plane.orientation;
      this.placePlane(plane);
      plane.pendingFlags |= PlaneChange.Pose | (plane.orientation !== before ? PlaneChange.Attributes : 0);
      this.changed = true;
    }
  }

  /** A surface was removed: its plane goes, with a PlaneRemoved record if it had been reported. */
  surfaceRemoved(surface: number, frame: Frame): void {
    for (const plane of this.planes) {
      if (plane.surface !== surface || plane.removed) continue;
      plane.removed = true;
      if (plane.detected) {
        this.detected.delete(plane.id);
        plane.detected = null;
        frame.beginRecord(EventType.PlaneRemoved);
        frame.word(plane.id);
        frame.endRecord();
      }
    }
    this.rebuildFaceMap();
  }

  /** Whether any plane can still grow, so that a depth frame is worth observing. */
  observing(): boolean {
    return this.observed > 0;
  }

  /**
   * Marks what a depth frame saw: `depth` and `ids` are the rasterizer's buffers for `camera`. Every other
   * pixel of every other row is enough: at 5 cm cells a pixel covers a few millimetres at arm's length and
   * a few centimetres across the room. Planes whose polygon is already the whole face are skipped, and so
   * are the parts of the frame where no pixel can land in a cell not yet seen. `rays`: the rasterizer's ray
   * tables for `camera` (its buffers' owner).
   */
  observe(camera: RasterCamera, depth: Float32Array, ids: Int32Array, minRange: number, maxRange: number, rays: Pick<DepthRaster, 'rayX' | 'rayY' | 'heapUsed'>): void {
    const { width, height } = camera;
    const grids = this.grids;
    const frame = this.frame;
    frame.width = width;
    frame.height = height;
    frame.depth = depth;
    frame.ids = ids;
    frame.rayX = rays.rayX;
    frame.rayY = rays.rayY;
    frame.minRange = minRange;
    frame.maxRange = maxRange;
    const heap = this.heap;
    // First, as it may move the grids' arrays into the heap (where the coefficients are written next).
    heap.bind(grids, frame, rays.heapUsed);
    const { cellSize } = this.model;
    const active = frameCoefficients(this.planes, grids, camera, cellSize, this.active);
    let found: number;
    if (PlaneDetector.wholeLattice) {
      found = this.observeReference(grids, frame);
    } else {
      if (!this.cull.nextFrame()) {
        found = heap.observeAll(0, Math.ceil(width / OBSERVATION_STRIDE) - 1, 0, Math.ceil(height / OBSERVATION_STRIDE) - 1, 0);
      } else {
        frameBounds(this.planes, grids, camera, cellSize, minRange, this.active, active);
        found = observeLive(grids, frame, this.active, active, this.cull, heap);
      }
      // The kernel counted each plane's new cells and set their bits.
      if (found > 0) for (let i = 0; i < active; i++) countSeenInFrame(this.planes[this.active[i]], heap.frameStats);
    }
    if (found > 0) this.changed = true;
  }

  /** The reference pass (see `wholeLattice`): every lattice pixel in JavaScript, each new cell counted here. Returns how many. */
  private observeReference(grids: PlaneGrids, frame: LatticeFrame): number {
    const capacity = 2 * Math.ceil(frame.width / OBSERVATION_STRIDE) * Math.ceil(frame.height / OBSERVATION_STRIDE);
    if (this.newCells.length < capacity) this.newCells = new Int32Array(capacity);
    const newCells = this.newCells;
    const found = observeLattice(grids, frame, newCells);
    for (let n = 0; n < found; n += 2) {
      const plane = this.planes[newCells[n]];
      const cell = newCells[n + 1];
      const r = Math.floor(cell / plane.cols);
      const c = cell - r * plane.cols;
      countSeen(plane, c, r);
      setSeenBit(grids, plane.id, c, r);
    }
    return found / 2;
  }

  /** Advances to tick `tick` (time `t`): reports planes whose latency has passed and changes to reported ones. */
  update(tick: number, t: number, frame: Frame): void {
    // Nothing seen, moved, added or removed since the last update, and no report due: nothing to do.
    if (!this.changed && !(t + 1e-9 >= this.nextReport)) return;
    this.changed = false;
    let nextReport = Infinity;
    const { minSeenArea, latency, cellSize } = this.model;
    for (const plane of this.planes) {
      if (plane.removed) continue;
      if (!plane.detected) {
        if (plane.qualifiedAt === null) {
          const seenArea = plane.seenCells * cellSize * cellSize;
          if (seenArea + 1e-12 >= Math.min(minSeenArea, plane.candidate.area / 2)) plane.qualifiedAt = t;
        }
        if (plane.qualifiedAt !== null && t + 1e-9 >= plane.qualifiedAt + latency) this.report(plane, tick, frame);
        else if (plane.qualifiedAt !== null) nextReport = Math.min(nextReport, plane.qualifiedAt + latency);
        continue;
      }
      // Only newly seen cells can change the polygon.
      if (plane.grown) {
        plane.grown = false;
        if (this.polygonChanged(plane)) {
          plane.detected.polygon = this.polygonPoints(plane);
          plane.pendingFlags |= PlaneChange.Attributes;
          // A whole face cannot grow: stop observing it.
          if (plane.full) this.rebuildFaceMap();
        }
      }
      if (plane.pendingFlags !== 0) {
        if (plane.pendingFlags & PlaneChange.Attributes) plane.detected.lastChangedTick = tick;
        plane.detected.orientation = plane.orientation;
        writePlaneRecord(frame, EventType.PlaneUpdated, plane.detected, plane.pendingFlags);
        plane.pendingFlags = 0;
      }
    }
    this.nextReport = nextReport;
  }

  /** Every candidate plane's id, surface, label and whether it is detected (for tools and tests). */
  candidates(): { id: number; surface: number; label: SemanticLabel; orientation: PlaneOrientation; detected: boolean; removed: boolean }[] {
    return this.planes.map((p) => ({ id: p.id, surface: p.surface, label: p.candidate.label, orientation: p.orientation, detected: p.detected !== null, removed: p.removed }));
  }

  private report(plane: TrackedPlane, tick: number, frame: Frame): void {
    this.polygonChanged(plane);
    plane.detected = {
      id: plane.id,
      surface: plane.surface,
      semanticLabel: plane.candidate.label,
      orientation: plane.orientation,
      pose: plane.pose,
      polygon: this.polygonPoints(plane),
      lastChangedTick: tick,
    };
    plane.pendingFlags = 0;
    this.detected.set(plane.id, plane.detected);
    if (plane.full) this.rebuildFaceMap();
    writePlaneRecord(frame, EventType.PlaneAdded, plane.detected, 0);
  }

  /**
   * Brings the polygon to report up to date: the whole face once `completeFraction` of it has been seen,
   * else the seen bounds. Returns whether it changed.
   */
  private polygonChanged(plane: TrackedPlane): boolean {
    if (plane.full) return false;
    if (plane.seenCells >= this.model.completeFraction * plane.insideCells) {
      plane.full = true;
      return true;
    }
    const b = plane.bounds, reported = plane.reportedBounds;
    if (b[0] === reported[0] && b[1] === reported[1] && b[2] === reported[2] && b[3] === reported[3]) return false;
    reported.set(b);
    return true;
  }

  /** The reported outline: the seen bounds clipped to the face, or the whole face. */
  private polygonPoints(plane: TrackedPlane): DetectedPlane['polygon'] {
    let points = plane.candidate.polygon;
    if (!plane.full) {
      const cell = this.model.cellSize;
      const [c0, c1, r0, r1] = plane.bounds;
      points = clipToRectangle(points, plane.minX + c0 * cell, plane.minX + (c1 + 1) * cell, plane.minZ + r0 * cell, plane.minZ + (r1 + 1) * cell);
    }
    return points.map(([x, z]) => ({ x, y: 0, z, w: 1 }));
  }

  /** Plane space in the world from its primitive's current pose, and its orientation. */
  private placePlane(plane: TrackedPlane): void {
    const g = this.geometry;
    const p = plane.candidate.primitive;
    const { position, rotation } = plane.candidate.local;
    // Plane axes in the primitive's frame.
    const axes = quatAxes(rotation);
    const local = [axes.x, axes.y, axes.z];
    for (let axis = 0; axis < 3; axis++) plane.axes.set(directionToWorld(g, p, local[axis]), axis * 3);
    const offset = directionToWorld(g, p, position);
    for (let k = 0; k < 3; k++) plane.origin[k] = g.position[p * 3 + k] + offset[k];
    plane.pose.set(plane.origin, 0);
    const a = plane.axes;
    plane.pose.set(quatFromAxes([a[3], a[4], a[5]], [a[6], a[7], a[8]]), 3);
    const ny = plane.axes[4];
    plane.orientation = Math.abs(ny) >= HORIZONTAL_COS ? 'horizontal' : Math.abs(ny) <= VERTICAL_SIN ? 'vertical' : null;
  }

  private rebuildFaceMap(): void {
    this.changed = true;
    const faceMap = (this.grids.faceMap = new Int32Array(this.geometry.count * FACES_PER_PRIMITIVE).fill(-1));
    this.observed = 0;
    for (const plane of this.planes) {
      if (!plane.removed && !plane.full) {
        faceMap[faceId(plane.candidate.primitive, plane.candidate.faceCode)] = plane.id;
        this.observed++;
      }
    }
  }
}

/** Writes a PlaneAdded or PlaneUpdated record (fields in the order of `PLANE_PAYLOAD`). */
function writePlaneRecord(frame: Frame, type: number, plane: DetectedPlane, flags: number): void {
  frame.beginRecord(type);
  frame.word(plane.id);
  frame.word(plane.surface);
  frame.word(SEMANTIC_LABELS.indexOf(plane.semanticLabel));
  frame.word(PLANE_ORIENTATIONS.indexOf(plane.orientation));
  frame.word(plane.lastChangedTick);
  frame.word(flags);
  for (let k = 0; k < POSE_WORDS; k++) frame.float(plane.pose[k]);
  frame.word(plane.polygon.length);
  for (const point of plane.polygon) {
    frame.float(point.x);
    frame.float(point.z);
  }
  frame.endRecord();
}

/** Whether (x, z) lies inside a convex polygon wound counter-clockwise seen from +Y. */
export function insideConvex(polygon: readonly (readonly [number, number])[], x: number, z: number): boolean {
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i], b = polygon[(i + 1) % polygon.length];
    const ax = a[0], az = a[1], bx = b[0], bz = b[1];
    // Outward normal of an edge of such a polygon: (−ez, ex).
    if (-(bz - az) * (x - ax) + (bx - ax) * (z - az) > 1e-12) return false;
  }
  return true;
}

/** Sutherland–Hodgman clipping of a convex polygon to an axis-aligned rectangle in (x, z). */
function clipToRectangle(polygon: readonly [number, number][], x0: number, x1: number, z0: number, z1: number): [number, number][] {
  let points: [number, number][] = [...polygon];
  const edges: [number, 0 | 1, 1 | -1][] = [[x0, 0, 1], [x1, 0, -1], [z0, 1, 1], [z1, 1, -1]];
  for (const [limit, axis, sign] of edges) {
    const next: [number, number][] = [];
    for (let i = 0; i < points.length; i++) {
      const a = points[i];
      const b = points[(i + 1) % points.length];
      const inA = sign * (a[axis] - limit) >= 0;
      const inB = sign * (b[axis] - limit) >= 0;
      if (inA) next.push(a);
      if (inA !== inB) {
        const s = (limit - a[axis]) / (b[axis] - a[axis]);
        next.push([a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])]);
      }
    }
    points = next;
  }
  return points;
}
