/**
 * The depth rasterizer is fast (issue 12: its per-pixel loops in asm.js, cylinder caps decided per primitive) and
 * bit-identical to the one before it, kept in test/helpers/reference-depth-raster.ts: every depth, face id
 * and incidence of every pixel, in every room, from many camera poses (looking at the furniture, the
 * props and the user's hands, from afar and from so close that faces cross the near plane), for whole
 * images, the half lattice plane detection reads, single-pixel windows, and pictures without incidence.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { DRAW_DYNAMIC, DRAW_HANDS, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../kernels/depth-raster.js';
import { PrimitiveKind, PrimitiveType, SceneGeometry } from '../kernels/scene-geometry.js';
import { quatFromAxes } from '../src/geometry/math.js';
import { buildModel, listSceneIds, loadScene, loadTask, Session, type Vec3 } from '../src/index.js';
import { ReferenceDepthRaster } from './helpers/reference-depth-raster.js';

const ALL = DRAW_STATIC | DRAW_DYNAMIC | DRAW_HANDS;

/** Renders with both rasterizers and lists the pixels where any output differs (at most 5), and counts what was drawn. */
class Pair {
  readonly fast: DepthRaster;
  readonly reference: ReferenceDepthRaster;
  differing: string[] = [];
  drawn = 0;
  renders = 0;

  constructor(width: number, height: number, withIncidence = true) {
    this.fast = new DepthRaster(width, height);
    this.reference = new ReferenceDepthRaster(width, height);
    this.fast.withIncidence = withIncidence;
    this.reference.withIncidence = withIncidence;
  }

  render(g: SceneGeometry, camera: RasterCamera, kinds: number, lattice = 1, window?: [number, number, number, number]): void {
    const [r0, r1, c0, c1] = window ?? [0, camera.height - 1, 0, camera.width - 1];
    this.fast.render(g, camera, kinds, lattice, r0, r1, c0, c1);
    this.reference.render(g, camera, kinds, lattice, r0, r1, c0, c1);
    this.renders++;
    const { fast, reference } = this;
    for (let i = 0; i < fast.depth.length && this.differing.length < 5; i++) {
      // Object.is: bit for bit, −0 and NaN included; every pixel, also those this render left alone.
      if (!Object.is(fast.depth[i], reference.depth[i]) || fast.id[i] !== reference.id[i] || !Object.is(fast.incidence[i], reference.incidence[i])) {
        this.differing.push(`render ${this.renders}, pixel ${i}: ${fast.depth[i]}/${reference.depth[i]} id ${fast.id[i]}/${reference.id[i]} cos ${fast.incidence[i]}/${reference.incidence[i]}`);
      }
      if (fast.id[i] >= 0) this.drawn++;
    }
  }
}

function look(camera: RasterCamera, eye: Vec3, target: Vec3, up: Vec3 = [0, 1, 0]): RasterCamera {
  const back: Vec3 = [eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]];
  if (Math.hypot(...back) < 1e-6) back[2] = 1;
  setCameraPose(camera, eye, quatFromAxes(up, back, 'z'));
  return camera;
}

describe('depth rasterizer: bit-identical to the reference implementation', () => {
  for (const sceneId of listSceneIds()) {
    it(`in ${sceneId}: whole images, the half lattice, windows and pictures, from 60 poses`, async () => {
      const scene = loadScene(sceneId);
      // A session poses the props and the user's resting hands in the geometry store.
      const session = await Session.create(buildModel(scene, loadTask('xr/depth-bounce')), { seed: 5 });
      try {
        const g = session.state.scene.geometry;
        const [sx, sy, sz] = scene.spec.room.size;
        const random = seedrandom(`depth-raster-identity/${sceneId}`);
        const u = (lo: number, hi: number) => lo + (hi - lo) * random();
        const headset = pinholeCamera(160, 120, (80 * Math.PI) / 180, 0.01, 7.5);
        const picture = pinholeCamera(97, 61, (70 * Math.PI) / 180, 0.05, 20);
        const image = new Pair(160, 120);
        const lattice = new Pair(160, 120);
        const window = new Pair(160, 120);
        const pictures = new Pair(97, 61, false);
        for (let pose = 0; pose < 60; pose++) {
          const eye: Vec3 = [u(-sx / 2 + 0.2, sx / 2 - 0.2), u(0.3, sy - 0.2), u(-sz / 2 + 0.2, sz / 2 - 0.2)];
          let target: Vec3;
          if (pose % 3 === 0) {
            // A primitive (furniture, a prop or a hand part), sometimes from a few centimetres away.
            const i = Math.floor(random() * g.count);
            target = [g.position[i * 3], g.position[i * 3 + 1], g.position[i * 3 + 2]];
            const away = pose % 2 === 0 ? u(0.02, 0.15) : u(0.4, 1.5);
            const direction: Vec3 = [u(-1, 1), u(-1, 1), u(-1, 1)];
            const length = Math.hypot(...direction);
            for (let k = 0; k < 3; k++) eye[k] = target[k] + (direction[k] / length) * away;
          } else {
            target = [u(-sx, sx), u(-1, sy + 1), u(-sz, sz)];
          }
          const up: Vec3 = pose % 5 === 0 ? [u(-1, 1), u(-1, 1), u(-1, 1)] : [0, 1, 0];
          image.render(g, look(headset, eye, target, up), ALL);
          lattice.render(g, headset, ALL, 2);
          for (let k = 0; k < 3; k++) {
            const row = Math.floor(random() * 120), col = Math.floor(random() * 160);
            window.render(g, headset, pose % 2 === 0 ? ALL : DRAW_STATIC | DRAW_DYNAMIC, 1, [Math.max(0, row - 1), Math.min(119, row + 1), Math.max(0, col - 1), Math.min(159, col + 1)]);
          }
          pictures.render(g, look(picture, eye, target, up), DRAW_STATIC | DRAW_DYNAMIC);
        }
        for (const pair of [image, lattice, window, pictures]) expect(pair.differing).toEqual([]);
        // The renders drew something: a test that compared empty images would prove nothing.
        expect(image.drawn).toBeGreaterThan(60 * 160 * 120 * 0.5);
        expect(lattice.drawn).toBeGreaterThan(60 * 80 * 60 * 0.5);
        expect(pictures.drawn).toBeGreaterThan(60 * 97 * 61 * 0.3);
      } finally {
        session.dispose();
      }
    });
  }

  it('on random boxes, slabs, spheres, capsules and cylinders (flat ones too), seen from outside, inside and across the near plane', () => {
    const random = seedrandom('depth-raster-identity/primitives');
    const u = (lo: number, hi: number) => lo + (hi - lo) * random();
    const g = new SceneGeometry();
    const types = [PrimitiveType.Box, PrimitiveType.Prism, PrimitiveType.Sphere, PrimitiveType.Capsule, PrimitiveType.Cylinder];
    for (let i = 0; i < 60; i++) {
      const type = types[i % types.length];
      const flat = i % 15 === 4; // a cylinder of no height
      const params =
        type === PrimitiveType.Box ? [u(0.01, 0.4), u(0.01, 0.4), u(0.01, 0.4)]
        : type === PrimitiveType.Prism ? [u(0.005, 0.1)]
        : [u(0.02, 0.25), flat ? 0 : u(0.01, 0.3)];
      const sides = 3 + (i % 6);
      const polygon = type === PrimitiveType.Prism ? Array.from({ length: sides }, (_, k) => [Math.cos((k * 2 * Math.PI) / sides) * u(0.1, 0.3), Math.sin((k * 2 * Math.PI) / sides) * u(0.1, 0.3)] as [number, number]) : undefined;
      g.add({
        type,
        kind: [PrimitiveKind.Static, PrimitiveKind.Dynamic, PrimitiveKind.Hand][i % 3],
        owner: i,
        params,
        polygon,
        position: [u(-1.5, 1.5), u(-1, 1), u(-3, 0.5)],
        rotation: quatFromAxes([u(-1, 1), u(-1, 1), u(-1, 1)], [u(-1, 1), u(-1, 1), u(-1, 1)]),
      });
    }
    const camera = pinholeCamera(200, 150, (90 * Math.PI) / 180, 0.01, 10);
    const image = new Pair(200, 150);
    const lattice = new Pair(200, 150);
    for (let pose = 0; pose < 60; pose++) {
      // Some eyes sit inside or right next to a primitive; a third inside a curved one, looking along its
      // axis (at a cylinder's cap from inside, which must not be drawn) or across it.
      const i = pose % 3 === 2 ? types.indexOf(PrimitiveType.Cylinder) + 5 * Math.floor(random() * 12) - Math.floor(random() * 3) : Math.floor(random() * g.count);
      const centre: Vec3 = [g.position[i * 3], g.position[i * 3 + 1], g.position[i * 3 + 2]];
      const eye: Vec3 = pose % 3 === 0 ? [centre[0] + u(-0.1, 0.1), centre[1] + u(-0.1, 0.1), centre[2] + u(-0.1, 0.1)] : pose % 3 === 2 ? [...centre] : [u(-1, 1), u(-0.5, 0.5), u(0, 1.5)];
      const along = u(-1, 1) < 0 ? -1 : 1;
      const axis: Vec3 = [g.rot(i, 1, 0) * along, g.rot(i, 1, 1) * along, g.rot(i, 1, 2) * along];
      const target: Vec3 = pose % 3 === 2 && pose % 2 === 0 ? [eye[0] + axis[0] + u(-0.3, 0.3), eye[1] + axis[1] + u(-0.3, 0.3), eye[2] + axis[2] + u(-0.3, 0.3)] : [u(-1.5, 1.5), u(-1, 1), u(-3, 0)];
      look(camera, eye, target, [u(-1, 1), 1, u(-1, 1)]);
      image.render(g, camera, ALL);
      lattice.render(g, camera, ALL, 2);
    }
    expect(image.differing).toEqual([]);
    expect(lattice.differing).toEqual([]);
    expect(image.drawn).toBeGreaterThan(60 * 200 * 150 * 0.2);
  });

  it('runs its per-pixel loops as validated asm.js (else they are correct but slower)', () => {
    // V8 says whether a module was compiled as asm.js only to code run with --allow-natives-syntax.
    const kernel = fileURLToPath(new URL('../dist/kernels/depth-raster.js', import.meta.url));
    const asm = fileURLToPath(new URL('../dist/kernels/raster-asm.js', import.meta.url));
    const script = `const { DepthRaster } = await import(${JSON.stringify(kernel)}); const { rasterAsm } = await import(${JSON.stringify(asm)}); new DepthRaster(160, 120); new DepthRaster(1280, 720); console.log(%IsAsmWasmCode(rasterAsm));`;
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('true');
  });
});
