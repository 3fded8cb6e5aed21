/**
 * The fast paths of plane observation and hand contact give exactly what the straightforward computations
 * they replaced give: the cells a depth frame marks (truncation and clamping instead of floor, coefficients
 * kept along a run of one plane's pixels), the planes detected when only the tiles of a frame that can
 * still see an unseen cell are read, and the nearest static surface when a broad-phase pass has picked the
 * candidates first.
 */
import { describe, expect, it } from 'vitest';
import { observeLattice, PLANE_COEFFICIENTS, type PlaneGrids } from '../kernels/plane-observe.js';
import { buildModel, loadScene, loadTask, Session, type TaskSpec } from '../src/index.js';
import { OBSERVATION_STRIDE, PlaneDetector } from '../src/sensing/planes.js';
import { PrimitiveKind, PrimitiveType, SceneGeometry } from '../kernels/scene-geometry.js';
import { gatherNear, signedDistance, signedDistanceAmong } from '../kernels/sdf.js';
import { Sfc32 } from '../kernels/prng.js';

/** The cells marked by the formula plane detection started with: floor, then clamp, pixel by pixel. */
function referenceCells(grids: PlaneGrids, width: number, height: number, depth: Float32Array, ids: Int32Array, rayX: Float64Array, rayY: Float64Array, minRange: number, maxRange: number): Set<string> & { clamped?: number } {
  const cells: Set<string> & { clamped?: number } = new Set<string>();
  cells.clamped = 0;
  const k = grids.coefficients;
  for (let row = 0; row < height; row += 2) {
    for (let col = 0; col < width; col += 2) {
      const i = row * width + col;
      const id = ids[i];
      if (id < 0 || id >= grids.faceMap.length) continue;
      const plane = grids.faceMap[id];
      if (plane < 0) continue;
      const z = depth[i];
      if (z < minRange || z > maxRange) continue;
      const rx = rayX[col], ry = rayY[row], o = plane * PLANE_COEFFICIENTS;
      const u = k[o] + z * (k[o + 1] * rx + k[o + 2] * ry - k[o + 3]);
      if (u < 0 || u >= grids.cols[plane]) cells.clamped!++;
      const c = Math.min(grids.cols[plane] - 1, Math.max(0, Math.floor(u)));
      const r = Math.min(grids.rows[plane] - 1, Math.max(0, Math.floor(k[o + 4] + z * (k[o + 5] * rx + k[o + 6] * ry - k[o + 7]))));
      cells.add(`${plane}:${r * grids.cols[plane] + c}`);
    }
  }
  return cells;
}

describe('observeLattice', () => {
  it('marks exactly the cells of floor-then-clamp, across grid edges, negative coordinates and runs of one plane', () => {
    const random = new Sfc32(7);
    const width = 64, height = 48;
    let totalClamped = 0;
    for (let trial = 0; trial < 20; trial++) {
      const planes = 3;
      const cols = Int32Array.of(40, 30, 6);
      const rows = Int32Array.of(30, 25, 4);
      const grids: PlaneGrids = {
        faceMap: new Int32Array(40).fill(-1),
        coefficients: new Float64Array(planes * PLANE_COEFFICIENTS),
        facing: new Float64Array(0),
        reach: new Float64Array(0),
        seenBits: new Int32Array(0),
        seenBitsStart: new Int32Array(0),
        cols,
        rows,
        seenStart: Int32Array.of(0, 1200, 1950),
        seen: new Uint8Array(1974),
      };
      grids.faceMap[3] = 0;
      grids.faceMap[11] = 1;
      grids.faceMap[17] = 2;
      // Coefficients that put pixels inside the grids and outside them on every side.
      for (let p = 0; p < planes; p++) {
        const o = p * PLANE_COEFFICIENTS;
        for (let i = 0; i < PLANE_COEFFICIENTS; i++) grids.coefficients[o + i] = (random.next() - 0.5) * 8;
        grids.coefficients[o] = cols[p] * random.next();
        grids.coefficients[o + 4] = rows[p] * random.next();
      }
      const depth = new Float32Array(width * height);
      const ids = new Int32Array(width * height);
      for (let i = 0; i < ids.length; i++) {
        // Runs of one face, some pixels of no plane, some out of range.
        const run = Math.floor(i / 5) % 6;
        ids[i] = run === 0 ? -1 : run === 1 ? 5 : run < 4 ? 3 : run === 4 ? 11 : 17;
        depth[i] = random.next() < 0.05 ? 9 : 0.2 + random.next() * 3;
      }
      const rayX = Float64Array.from({ length: width }, (_, c) => (c + 0.5 - width / 2) / 40);
      const rayY = Float64Array.from({ length: height }, (_, r) => -(r + 0.5 - height / 2) / 40);
      const expected = referenceCells(grids, width, height, depth, ids, rayX, rayY, 0.25, 3);
      const out = new Int32Array(width * height);
      const frame = { width, height, stride: 2, depth, ids, rayX, rayY, minRange: 0.25, maxRange: 3 };
      const found = observeLattice(grids, frame, out);
      const marked = new Set<string>();
      for (let n = 0; n < found; n += 2) marked.add(`${out[n]}:${out[n + 1]}`);
      expect(found / 2).toBe(marked.size);
      expect(marked).toEqual(expected);
      expect(expected.size).toBeGreaterThan(10);
      totalClamped += expected.clamped!;
      // Cells marked are remembered: the same frame again marks nothing.
      expect(observeLattice(grids, frame, out)).toBe(0);
    }
    // Pixels beyond the grids' edges (negative coordinates included) were clamped onto them.
    expect(totalClamped).toBeGreaterThan(100);
  });
});

/** A session in `scene` whose user looks around the room, with plane detection. */
async function lookingAround(scene: string, seed: number): Promise<Session> {
  const task: TaskSpec = {
    id: 'test/looking-around',
    title: 'looking around the room',
    scene,
    duration: 6,
    placement: { anchor: 'open-floor', clear: [1, 1] },
    bodies: [{ id: 'ball', mass: 0.2, friction: 0.5, restitution: 0.1, position: [0, 0.1, 0], shape: { type: 'sphere', radius: 0.1 } }],
    validators: [{ type: 'settle', bodies: ['task:ball'], linearSpeedBelow: 0.01, milestones: [{ id: 'settles', threshold: 6 }] }],
  };
  return Session.create(buildModel(loadScene(scene), loadTask(task), { sensing: { planes: true } }), { seed });
}

/** Every tick's detected planes (ids, surfaces, labels, orientations, poses, polygons, lastChangedTime), and the session hash. */
async function planesOverSession(scene: string, wholeLattice: boolean) {
  PlaneDetector.wholeLattice = wholeLattice;
  try {
    const session = await lookingAround(scene, 3);
    const ticks: string[] = [];
    let turn = 0;
    while (!session.done) {
      if (session.tick % 60 === 0) session.user.head.turnTo((turn++ * 45) % 360, turn % 3 === 0 ? -45 : -15);
      // Halfway, a table moves: its plane follows, and what the culled pass knows of where it lies must too.
      if (session.tick === 270) session.environment.moveSurface(scene === 'kitchen' ? 'scene:dining-table' : scene === 'office' ? 'scene:desk' : 'scene:coffee-table', [0.3, 0, -0.2]);
      session.step();
      ticks.push(JSON.stringify(session.sensing.detectedPlanes().map((p) => [p.id, p.surface, p.semanticLabel, p.orientation, [...p.pose], p.polygon, p.lastChangedTick])));
    }
    const { counts } = (session.state.sensing.planes as unknown as { cull: { counts: { tests: number; pixelsRead: number; culledFrames: number; wholeFrames: number } } }).cull;
    const camera = session.state.sensing.depth!.camera;
    const lattice = Math.ceil(camera.width / OBSERVATION_STRIDE) * Math.ceil(camera.height / OBSERVATION_STRIDE);
    const result = { ticks, hash: session.hash, counts: { ...counts }, lattice };
    session.dispose();
    return result;
  } finally {
    PlaneDetector.wholeLattice = false;
  }
}

describe('plane observation of only the tiles that can still see an unseen cell', () => {
  for (const scene of ['living-room', 'kitchen', 'office']) {
    it(`detects exactly what the whole-lattice pass detects, tick by tick, in the ${scene}`, async () => {
      const whole = await planesOverSession(scene, true);
      const culled = await planesOverSession(scene, false);
      expect(culled.ticks.length).toBe(whole.ticks.length);
      for (let tick = 0; tick < whole.ticks.length; tick++) expect(culled.ticks[tick], `tick ${tick}`).toBe(whole.ticks[tick]);
      expect(culled.hash).toBe(whole.hash);
      // Planes were detected and grew, so the comparison is not of nothing.
      expect(JSON.parse(whole.ticks.at(-1)!).length).toBeGreaterThan(4);
      // The whole pass never culls; the culled one did, and read well under the whole lattice when it did.
      expect(whole.counts.culledFrames).toBe(0);
      expect(culled.counts.culledFrames).toBeGreaterThan(10);
      expect(culled.counts.pixelsRead).toBeLessThan(0.6 * culled.counts.culledFrames * culled.lattice);
    });
  }
});

describe('signedDistanceAmong with gatherNear', () => {
  it('finds the same surface, distance and normal as a pass over every static primitive', () => {
    const g = new SceneGeometry();
    const random = new Sfc32(3);
    const quat = (): number[] => {
      const q = [random.next() - 0.5, random.next() - 0.5, random.next() - 0.5, random.next() - 0.5];
      const n = Math.hypot(...q);
      return q.map((v) => v / n);
    };
    for (let i = 0; i < 30; i++) {
      const position = [random.next() * 2 - 1, random.next(), random.next() * 2 - 1];
      const type = [PrimitiveType.Box, PrimitiveType.Sphere, PrimitiveType.Capsule, PrimitiveType.Cylinder][i % 4];
      g.add({ type, kind: i % 5 === 0 ? PrimitiveKind.Dynamic : PrimitiveKind.Static, owner: i, params: [0.05 + random.next() * 0.2, 0.05 + random.next() * 0.2, 0.05 + random.next() * 0.2], position, rotation: quat() });
    }
    const normalA = new Float64Array(3), normalB = new Float64Array(3);
    const ownerA = new Int32Array(1), ownerB = new Int32Array(1);
    const near = new Int32Array(64);
    const box = new Float64Array(6);
    let hits = 0;
    for (let trial = 0; trial < 300; trial++) {
      // A hand-sized cloud of probe points, and one query range for all of them.
      const centre = [random.next() * 2.4 - 1.2, random.next() * 1.2 - 0.1, random.next() * 2.4 - 1.2];
      const points = Array.from({ length: 6 }, () => centre.map((v) => v + (random.next() - 0.5) * 0.2));
      const range = 0.01 + random.next() * 0.05;
      for (let a = 0; a < 3; a++) {
        box[a] = Math.min(...points.map((p) => p[a]));
        box[a + 3] = Math.max(...points.map((p) => p[a]));
      }
      const count = gatherNear(g, PrimitiveKind.Static, box, range + 0.01, near);
      for (const [x, y, z] of points) {
        const a = signedDistance(g, PrimitiveKind.Static, x, y, z, range, normalA, ownerA);
        const b = signedDistanceAmong(g, near, count, x, y, z, range, normalB, ownerB);
        expect(b).toBe(a);
        expect(ownerB[0]).toBe(ownerA[0]);
        if (ownerA[0] >= 0) {
          hits++;
          expect([...normalB]).toEqual([...normalA]);
        }
      }
    }
    expect(hits).toBeGreaterThan(50);
  });
});
