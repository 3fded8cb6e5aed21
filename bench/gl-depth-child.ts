/**
 * Child process of the depth benchmark: headless-gl's time per 160×120 depth frame on the same scene and
 * poses as the CPU kernel. Prints `{ "ms": … }`. Run under xvfb-run; gl loads in one thread per process.
 */
import { pinholeCamera } from '../kernels/depth-raster.js';
import { GlRenderer } from '../src/render/gl-renderer.js';
import { sceneMesh } from '../src/render/mesh.js';
import { buildSceneGeometry } from '../src/index.js';
import { livingRoomWith20Props, lookingAround } from './depth.js';
import { median } from './stats.js';

const { geometry } = buildSceneGeometry(livingRoomWith20Props());
const mesh = sceneMesh(geometry, 3, () => [255, 255, 255]);
const camera = pinholeCamera(160, 120, (80 * Math.PI) / 180, 0.05, 100);
const renderer = new GlRenderer(160, 120);
const runs: number[] = [];
for (let trial = 0; trial < 7; trial++) {
  const start = performance.now();
  for (let r = 0; r < 20; r++) for (let k = 0; k < 8; k++) renderer.render(mesh, lookingAround(camera, k), { colour: false });
  runs.push((performance.now() - start) / 160);
}
renderer.dispose();
process.stdout.write(`${JSON.stringify({ ms: median(runs.slice(2)) })}\n`);
