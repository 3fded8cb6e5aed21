/**
 * One full depth frame as the `headset` preset takes it: 160×120, the living room with its props and the
 * user's hands, rendered and turned into a noisy millimetre reading. The camera looks around the room from
 * standing eye height at 8 headings, 20° down; the figure is the median over trials of the mean over the 8.
 */
import { measureDepth, measureDepthReference } from '../kernels/depth-noise.js';
import { quatFromAxes } from '../src/geometry/math.js';
import { buildModel, loadScene, loadTask, Session, type Vec3 } from '../src/index.js';
import { cpuMs, median, round } from './stats.js';

/** Head poses (7 numbers) looking around the room. */
function headPoses(): Float64Array[] {
  return Array.from({ length: 8 }, (_, k) => {
    const yaw = (k * 2 * Math.PI) / 8;
    const eye: Vec3 = [0.2 * Math.cos(k), 1.6, 0.3 + 0.2 * Math.sin(k)];
    const back: Vec3 = [Math.sin(yaw), 0.35, Math.cos(yaw)];
    return Float64Array.from([...eye, ...quatFromAxes([0, 1, 0], back, 'z')]);
  });
}

/** ms per frame: render, noise and both, over `repeats` rounds of the 8 poses. */
export async function depthFrameMs(repeats = 40): Promise<{ renderMs: number; noiseMs: number; totalMs: number; cpuTotalMs: number; cpuRenderMs: number }> {
  const model = buildModel(loadScene('living-room'), loadTask('xr/depth-bounce'), { sensing: { depth: { width: 160, height: 120, noise: 'headset' } } });
  // Frame 0 of a session has posed the props and the user's resting hands in the geometry store.
  const session = await Session.create(model, { seed: 1 });
  const sensor = session.state.sensing.depth!;
  const geometry = session.state.scene.geometry;
  const poses = headPoses();
  const dt = model.timing.dt;
  let cpuTotalMs = 0;
  const time = (frame: (pose: Float64Array) => void) => {
    const trials: number[] = [];
    const cpuTrials: number[] = [];
    for (let trial = 0; trial < 9; trial++) {
      const start = performance.now();
      const cpuStart = cpuMs();
      for (let r = 0; r < repeats; r++) for (const pose of poses) frame(pose);
      trials.push((performance.now() - start) / (repeats * poses.length));
      cpuTrials.push((cpuMs() - cpuStart) / (repeats * poses.length));
    }
    cpuTotalMs = median(cpuTrials.slice(2));
    return median(trials.slice(2));
  };
  let tick = 0;
  const totalMs = time((pose) => {
    sensor.capture(++tick, dt, pose, geometry);
    void sensor.reading;
  });
  const totalCpuMs = cpuTotalMs;
  const renderMs = time((pose) => {
    sensor.capture(++tick, dt, pose, geometry);
    sensor.idealImage();
  });
  const renderCpuMs = cpuTotalMs;
  session.dispose();
  return { renderMs: round(renderMs), noiseMs: round(totalMs - renderMs), totalMs: round(totalMs), cpuTotalMs: round(totalCpuMs), cpuRenderMs: round(renderCpuMs) };
}

/**
 * The noise pass alone (`headset`, the same 8 rendered frames): the WebAssembly SIMD pass against the JS
 * reference, alternating in this process, as CPU ms per frame, and whether every reading is identical.
 */
export async function noiseAgainstReference(repeats = 40): Promise<{ simdMs: number; jsMs: number; ratio: number; identical: boolean }> {
  const model = buildModel(loadScene('living-room'), loadTask('xr/depth-bounce'), { sensing: { depth: { width: 160, height: 120, noise: 'headset' } } });
  const session = await Session.create(model, { seed: 1 });
  const sensor = session.state.sensing.depth!;
  const { width, height, noise } = sensor.model;
  const frames = headPoses().map((pose, k) => {
    sensor.capture(k + 1, model.timing.dt, pose, session.state.scene.geometry);
    const raster = sensor.idealImage();
    return { depth: raster.depth.slice(), incidence: raster.incidence.slice() };
  });
  const streams = sensor.noise!;
  session.dispose();
  const simdOut = new Uint16Array(width * height);
  const jsOut = new Uint16Array(width * height);
  let identical = true;
  let frameNumber = 0;
  const time = (pass: typeof measureDepth, out: Uint16Array) => {
    const start = cpuMs();
    for (let r = 0; r < repeats; r++) for (const f of frames) pass(f.depth, f.incidence, width, height, noise, streams, out, frameNumber++);
    return (cpuMs() - start) / (repeats * frames.length);
  };
  const simd: number[] = [];
  const js: number[] = [];
  for (let trial = 0; trial < 9; trial++) {
    simd.push(time(measureDepth, simdOut));
    js.push(time(measureDepthReference, jsOut));
    for (const [k, f] of frames.entries()) {
      measureDepth(f.depth, f.incidence, width, height, noise, streams, simdOut, k);
      measureDepthReference(f.depth, f.incidence, width, height, noise, streams, jsOut, k);
      for (let i = 0; i < simdOut.length; i++) if (simdOut[i] !== jsOut[i]) identical = false;
    }
  }
  const simdMs = median(simd.slice(2));
  const jsMs = median(js.slice(2));
  return { simdMs: round(simdMs), jsMs: round(jsMs), ratio: round(jsMs / simdMs), identical };
}
