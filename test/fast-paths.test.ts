/**
 * The fast paths of plane observation and hand contact give exactly what the straightforward computations
 * they replaced give: the cells a depth frame marks (truncation and clamping instead of floor, coefficients
 * kept along a run of one plane's pixels), the planes detected when only the tiles of a frame that can
 * still see an unseen cell are read, and the nearest static surface when a broad-phase pass has picked the
 * candidates first.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { observeLattice, PLANE_COEFFICIENTS, type PlaneGrids } from '../kernels/plane-observe.js';
import { EVERY_PLANE, FRAME_STATS, ObservationHeap } from '../kernels/plane-observe-asm.js';
import { buildModel, listSceneIds, loadScene, loadTask, Session, type TaskSpec } from '../src/index.js';
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

/** The (plane, cell) pairs of the first `found` numbers of `cells`, as referenceCells writes them. */
function cellsOf(cells: Int32Array, found: number): Set<string> {
  const marked = new Set<string>();
  for (let n = 0; n < found; n += 2) marked.add(`${cells[n]}:${cells[n + 1]}`);
  return marked;
}

/** That the kernel marked exactly `expected` in `grids` (from nothing seen), set their bits, and counted and bounded them per plane. */
function expectKernelMarked(grids: PlaneGrids, stats: Int32Array, expected: Set<string>): void {
  const marked = new Set<string>();
  for (let p = 0; p < grids.cols.length; p++) {
    const cols = grids.cols[p], words = Math.ceil(cols / 32);
    const bounds = [0x7fffffff, -1, 0x7fffffff, -1];
    let count = 0;
    for (let cell = 0; cell < cols * grids.rows[p]; cell++) {
      const c = cell % cols, r = Math.floor(cell / cols);
      const bit = (grids.seenBits[grids.seenBitsStart[p] + r * words + (c >> 5)] >>> (c & 31)) & 1;
      expect(bit).toBe(grids.seen[grids.seenStart[p] + cell]);
      if (bit === 0) continue;
      marked.add(`${p}:${cell}`);
      count++;
      bounds[0] = Math.min(bounds[0], c);
      bounds[1] = Math.max(bounds[1], c);
      bounds[2] = Math.min(bounds[2], r);
      bounds[3] = Math.max(bounds[3], r);
    }
    expect([...stats.subarray(p * FRAME_STATS, (p + 1) * FRAME_STATS)]).toEqual([count, ...bounds]);
  }
  expect(marked).toEqual(expected);
}

describe('observeLattice and the asm.js kernel', () => {
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
      // The asm.js kernel, on a copy of the grids moved into its heap: the same cells, whole and in tiles.
      const words = cols.map((c) => Math.ceil(c / 32));
      const seenBitsStart = Int32Array.of(0, words[0] * rows[0], words[0] * rows[0] + words[1] * rows[1]);
      const copy: PlaneGrids = { ...grids, faceMap: grids.faceMap.slice(), coefficients: grids.coefficients.slice(), cols: cols.slice(), rows: rows.slice(), seenStart: grids.seenStart.slice(), seen: grids.seen.slice(), seenBitsStart, seenBits: new Int32Array(seenBitsStart[2] + words[2] * rows[2]) };
      const heap = new ObservationHeap();
      heap.bind(copy, frame, 0);
      expect(heap.observeAll(0, width / 2 - 1, 0, height / 2 - 1, 0)).toBe(expected.size);
      expectKernelMarked(copy, heap.frameStats, expected);
      const tiled = { ...copy, seen: grids.seen.slice(), seenBits: new Int32Array(copy.seenBits.length) };
      heap.bind(tiled, frame, 0);
      // Quarter tiles, each for one plane, every plane, or two of them: every pixel read once for each plane.
      const lists = Int32Array.of(0, 1, 2, 2, 0, 1);
      let inTiles = 0;
      for (const [q, from, count] of [[0, 0, 3], [1, 0, EVERY_PLANE], [2, 3, 1], [2, 4, 2], [3, 0, EVERY_PLANE]]) {
        const c0 = (q & 1) * (width / 4), r0 = (q >> 1) * (height / 4);
        inTiles = heap.addTile(c0, c0 + width / 4 - 1, r0, r0 + height / 4 - 1, lists, from, count, inTiles);
      }
      expect(heap.flush(inTiles)).toBe(expected.size);
      expectKernelMarked(tiled, heap.frameStats, expected);
      const found = observeLattice(grids, frame, out);
      const marked = cellsOf(out, found);
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
      if (session.tick === 270) session.environment.moveSurface(MOVED[scene], [0.3, 0, -0.2]);
      // Earlier, a crate appears: its plane joins the grids, which the kernel's heap lays out again.
      if (session.tick === 180) session.environment.addSurface({ id: 'crate', label: 'table', material: MATERIAL[scene], position: [0.4, 0.3, -0.9], shape: { type: 'box', size: [0.8, 0.6, 0.6] } });
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

/** A material of each room's scene, for the crate its session adds. */
const MATERIAL: Record<string, string> = Object.fromEntries(listSceneIds().map((id) => [id, Object.keys(loadScene(id).spec.materials)[0]]));

/** The table each room's session moves halfway. */
const MOVED: Record<string, string> = { kitchen: 'scene:dining-table', office: 'scene:desk', 'living-room': 'scene:coffee-table', 'empty-lab': 'scene:lab-bench' };

describe('plane observation of only the tiles that can still see an unseen cell', () => {
  for (const scene of listSceneIds()) {
    it(`detects exactly what the whole-lattice pass detects, tick by tick, in the ${scene}`, async () => {
      const whole = await planesOverSession(scene, true);
      const culled = await planesOverSession(scene, false);
      expect(culled.ticks.length).toBe(whole.ticks.length);
      for (let tick = 0; tick < whole.ticks.length; tick++) expect(culled.ticks[tick], `tick ${tick}`).toBe(whole.ticks[tick]);
      expect(culled.hash).toBe(whole.hash);
      // Planes were detected and grew, so the comparison is not of nothing.
      expect(JSON.parse(whole.ticks.at(-1)!).length).toBeGreaterThan(4);
      // The whole pass never culls; the culled one did (in the furnished rooms, reading well under the
      // whole lattice when it did; the empty lab's far walls leave little to cull).
      expect(whole.counts.culledFrames).toBe(0);
      expect(culled.counts.culledFrames).toBeGreaterThan(scene === 'empty-lab' ? 3 : 10);
      if (scene !== 'empty-lab') expect(culled.counts.pixelsRead).toBeLessThan(0.6 * culled.counts.culledFrames * culled.lattice);
    });
  }

  it('gives the same place-on-detected-plane sessions as the whole-lattice reference pass, in every room, with the kernel validated as asm.js', () => {
    // Under vitest the kernel is transformed and runs as plain JavaScript: run the built one, as users do.
    const index = fileURLToPath(new URL('../dist/src/index.js', import.meta.url));
    const planes = fileURLToPath(new URL('../dist/src/sensing/planes.js', import.meta.url));
    const asm = fileURLToPath(new URL('../dist/kernels/plane-observe-asm.js', import.meta.url));
    const script = `
      const { createSession, expandMatrix } = await import(${JSON.stringify(index)});
      const { PlaneDetector } = await import(${JSON.stringify(planes)});
      const { planeObserveAsm } = await import(${JSON.stringify(asm)});
      const out = [];
      for (const { spec } of expandMatrix({ seeds: [1] }).filter((e) => e.spec.task === 'xr/place-on-detected-plane')) {
        const run = async (whole) => {
          PlaneDetector.wholeLattice = whole;
          const session = await createSession(spec);
          const planes = session.state.sensing.planes;
          const result = await session.run();
          return { hash: result.hash, status: result.status, detected: planes.detected.size, counts: planes.cull.counts, shared: planes.heap.shared };
        };
        out.push({ room: spec.scene, hand: spec.dominantHand, reference: await run(true), fast: await run(false) });
      }
      console.log(JSON.stringify({ validated: %IsAsmWasmCode(planeObserveAsm), out }));`;
    const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const { validated, out } = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    expect(validated).toBe(true);
    expect(out.map((o: { room: string }) => o.room)).toEqual(expect.arrayContaining(['empty-lab', 'office', 'kitchen']));
    for (const { room, hand, reference, fast } of out) {
      expect(fast.hash, `${room} ${hand}`).toBe(reference.hash);
      expect(fast.status).toBe('passed');
      expect(reference.detected).toBeGreaterThan(2);
      // The reference never culls; the fast pass culled or read whole with the kernel.
      expect(reference.counts.culledFrames + reference.counts.wholeFrames).toBe(0);
      expect(fast.counts.culledFrames + fast.counts.wholeFrames).toBeGreaterThan(50);
      // The kernel's part of its heap fitted in the free end of the rasterizer's: no copy of the frame.
      expect(fast.shared).toBe(true);
    }
  }, 120_000);
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
