/**
 * The sensing benchmark (issue 4): the CPU depth kernel against the naive per-pixel ray cast and against
 * headless-gl, on the living room with 20 props, and the cost of plane detection per tick against the
 * physics step of the same session. Every ratio is measured in one run.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DRAW_DYNAMIC, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../kernels/depth-raster.js';
import { rayCastDepth } from '../kernels/depth-raycast.js';
import { quatFromAxes } from '../src/geometry/math.js';
import { noiseAgainstReference } from './depth-frame.js';
import { buildModel, buildSceneGeometry, loadScene, loadTask, Session, type ShapeSpec, type SimModel, type TaskSpec, type Vec3 } from '../src/index.js';
import { median, round } from './stats.js';

const KINDS = DRAW_STATIC | DRAW_DYNAMIC;

/** The living room with its 7 props and 13 more on the floor: 20 dynamic bodies. */
export function livingRoomWith20Props(duration = 10): SimModel {
  const shapes = [
    { type: 'box', size: [0.2, 0.2, 0.2] },
    { type: 'sphere', radius: 0.1 },
    { type: 'cylinder', radius: 0.08, height: 0.25 },
    { type: 'capsule', radius: 0.05, length: 0.2 },
  ] as const;
  const task: TaskSpec = {
    id: 'bench/living-room-20-props',
    title: 'the living room with 20 props',
    scene: 'living-room',
    duration,
    placement: { anchor: 'open-floor', clear: [3.6, 1.4] },
    bodies: Array.from({ length: 13 }, (_, i) => ({
      id: `prop-${i}`,
      mass: 0.5,
      friction: 0.6,
      restitution: 0.1,
      position: [-1.5 + 0.25 * i, 0.2, -0.4 + 0.3 * (i % 3)] as Vec3,
      shape: structuredClone(shapes[i % shapes.length]) as ShapeSpec,
    })),
    validators: [{ type: 'settle', bodies: ['task:prop-0'], linearSpeedBelow: 0.01, milestones: [{ id: 'settles', threshold: duration }] }],
  };
  return buildModel(loadScene('living-room'), loadTask(task));
}

/** Head poses looking around the room from standing height. */
export function lookingAround(camera: RasterCamera, k: number): RasterCamera {
  const yaw = (k * 2 * Math.PI) / 8;
  const eye: Vec3 = [0.2 * Math.cos(k), 1.6, 0.3 + 0.2 * Math.sin(k)];
  const target: Vec3 = [eye[0] - Math.sin(yaw), 1.6 - 0.35, eye[2] - Math.cos(yaw)];
  setCameraPose(camera, eye, quatFromAxes([0, 1, 0], [eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]], 'z'));
  return camera;
}

/** ms per frame of the rasterizer and of the ray cast at one resolution, over the same 8 poses. */
function cpuAgainstNaive(model: SimModel, width: number, height: number) {
  const { geometry } = buildSceneGeometry(model);
  const camera = pinholeCamera(width, height, (80 * Math.PI) / 180, 0.01, 10);
  const raster = new DepthRaster(width, height);
  const out = new Float32Array(width * height);
  const time = (fn: (camera: RasterCamera) => void, repeats: number) => {
    const runs: number[] = [];
    for (let trial = 0; trial < 7; trial++) {
      const start = performance.now();
      for (let r = 0; r < repeats; r++) for (let k = 0; k < 8; k++) fn(lookingAround(camera, k));
      runs.push((performance.now() - start) / (repeats * 8));
    }
    return median(runs.slice(2));
  };
  const cpu = time(() => raster.render(geometry, camera, KINDS), 20);
  const naive = time(() => rayCastDepth(geometry, camera, KINDS, out), 1);
  return { cpuMs: round(cpu), naiveMs: round(naive), ratio: round(naive / cpu) };
}

/**
 * Plane detection's cost per tick (observation at 30 Hz, reports every tick) against the physics step; and
 * the same with the half-lattice depth render it reads (the depth sensor's `idealImage`, which nothing else
 * asks for in this session).
 */
async function planesAgainstPhysics(model: SimModel) {
  const ratios: number[] = [];
  const withRender: number[] = [];
  let planesUs = 0;
  let physicsUs = 0;
  let renderUs = 0;
  for (let trial = 0; trial < 5; trial++) {
    const session = await Session.create(model, { seed: trial });
    const sensing = session.state.sensing;
    const planes = sensing.planes!;
    let planeMs = 0;
    let physicsMs = 0;
    let renderMs = 0;
    const sensor = sensing.depth!;
    const idealImage = sensor.idealImage.bind(sensor);
    sensor.idealImage = (...args) => {
      const t0 = performance.now();
      const image = idealImage(...args);
      renderMs += performance.now() - t0;
      return image;
    };
    const observe = planes.observe.bind(planes);
    const update = planes.update.bind(planes);
    planes.observe = (...args) => {
      const t0 = performance.now();
      observe(...args);
      planeMs += performance.now() - t0;
    };
    planes.update = (...args) => {
      const t0 = performance.now();
      update(...args);
      planeMs += performance.now() - t0;
    };
    const physics = session.state.physics;
    const step = physics.step.bind(physics);
    physics.step = (frame) => {
      const t0 = performance.now();
      step(frame);
      physicsMs += performance.now() - t0;
    };
    let k = 0;
    while (!session.done) {
      if (session.tick % 90 === 0) session.user.head.turnTo((k++ * 45) % 360, -20);
      session.step();
    }
    const ticks = model.timing.durationTicks;
    if (trial >= 1) {
      ratios.push(planeMs / physicsMs);
      withRender.push((planeMs + renderMs) / physicsMs);
      planesUs = (planeMs / ticks) * 1000;
      physicsUs = (physicsMs / ticks) * 1000;
      renderUs = (renderMs / ticks) * 1000;
    }
    session.dispose();
  }
  return { planesUsPerTick: round(planesUs), renderUsPerTick: round(renderUs), physicsUsPerTick: round(physicsUs), ratio: round(median(ratios)), withRender: round(median(withRender)) };
}

/**
 * headless-gl's ms per depth frame at 160×120, in a child process under xvfb-run (gl needs a display and
 * loads in one thread per process), or null without gl.
 */
function glMs(): { ms: number | null; note: string } {
  try {
    createRequire(import.meta.url).resolve('gl');
  } catch {
    return { ms: null, note: 'gl not installed' };
  }
  const child = fileURLToPath(new URL('./gl-depth-child.js', import.meta.url));
  const command = process.env.DISPLAY ? [process.execPath, child] : ['xvfb-run', '-a', process.execPath, child];
  const run = spawnSync(command[0], command.slice(1), { encoding: 'utf8' });
  const last = run.stdout?.trim().split('\n').pop();
  if (run.status !== 0 || !last) return { ms: null, note: `gl child failed: ${(run.stderr || run.error?.message || '').slice(0, 200)}` };
  return { ms: round(JSON.parse(last).ms as number), note: 'headless-gl, depth pass and readback, mesh built once' };
}

/** Runs the depth suite. */
export async function depthBenchmark(progress: (line: string) => void) {
  const model = livingRoomWith20Props();
  progress('CPU kernel against the naive ray cast at 160x120 …');
  const small = cpuAgainstNaive(model, 160, 120);
  progress('… and at 320x240 …');
  const large = cpuAgainstNaive(model, 320, 240);
  progress('headless-gl at 160x120 …');
  const gl = glMs();
  progress('plane detection against the physics step …');
  const planeModel = buildModel(loadScene('living-room'), loadTask(model.sources.task), { sensing: { planes: true } });
  const planes = await planesAgainstPhysics(planeModel);
  progress('the depth noise pass: WebAssembly SIMD against the JS reference …');
  const noise = await noiseAgainstReference();
  return {
    details: { '160x120': small, '320x240': large, gl, planes, noise },
    summary: {
      cpu_vs_naive_160x120: small.ratio,
      cpu_vs_naive_320x240: large.ratio,
      cpu_vs_gl_160x120: (gl.ms === null ? null : round(small.cpuMs / gl.ms)) as number,
      planes_vs_physics: planes.ratio,
      planes_with_render_vs_physics: planes.withRender,
      noise_ms_160x120: noise.simdMs,
      noise_simd_vs_js_160x120: noise.ratio,
    },
  };
}
