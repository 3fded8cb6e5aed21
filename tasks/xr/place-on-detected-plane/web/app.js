// The place-on-detected-plane page, written as a web developer writes it with three.js: each hand gets a
// hit-test source on its target ray (`session.requestHitTestSource`); a pinch (a `selectstart` on
// `renderer.xr.getController(i)`) places a cube on the first surface the ray hits in that frame, once.
// `options` are the mistakes the adversarial pages make.
import * as THREE from 'three';

const HALF = 0.03;

/**
 * @param {{ planes?: 'hit-test' | 'startup-meshes', poseSpace?: 'scene' | 'local' }} options
 *   planes: `startup-meshes` is the mistake of reading `frame.detectedPlanes` once, a second after start,
 *   building a mesh per plane and raycasting the pinch ray against those meshes ever after.
 *   poseSpace: `local` is the mistake of reading hit poses in a `local` reference space of its own while
 *   three.js renders the scene in `local-floor`.
 */
export async function startPlacerApp({ planes = 'hit-test', poseSpace = 'scene' } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: false });
  renderer.xr.enabled = true;
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(70, 1, 0.01, 20);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));

  const cube = new THREE.Mesh(new THREE.BoxGeometry(2 * HALF, 2 * HALF, 2 * HALF), new THREE.MeshStandardMaterial({ color: 0x3388ff }));
  cube.userData.xrsimTag = 'cube';
  let placed = false;

  const session = await navigator.xr.requestSession('immersive-ar', {
    requiredFeatures: ['local-floor', 'hand-tracking', 'hit-test'],
    optionalFeatures: ['plane-detection'],
  });
  await renderer.xr.setSession(session);
  const localSpace = poseSpace === 'local' ? await session.requestReferenceSpace('local') : null;

  // One hit-test source per input source, on its target ray.
  const hitTestSources = new Map();
  let pinched = null; // the input source whose pinch is waiting for the next frame
  for (const i of [0, 1]) {
    const controller = renderer.xr.getController(i);
    scene.add(controller);
    controller.addEventListener('connected', async (event) => {
      const source = event.data;
      if (planes === 'hit-test') hitTestSources.set(source, await session.requestHitTestSource({ space: source.targetRaySpace }));
    });
    controller.addEventListener('disconnected', (event) => {
      hitTestSources.get(event.data)?.cancel();
      hitTestSources.delete(event.data);
    });
    // three.js dispatches select events outside the animation frame: act on the pinch in the next frame.
    controller.addEventListener('selectstart', (event) => {
      if (!placed && !pinched) pinched = { source: event.data, controller };
    });
  }

  const planeMeshes = new THREE.Group();
  scene.add(planeMeshes);
  const raycaster = new THREE.Raycaster();

  /** Where the pinching hand's ray meets a surface (scene coordinates), or null. */
  function surfaceHit(frame, { source, controller }) {
    if (planes === 'startup-meshes') {
      raycaster.setFromXRController(controller);
      const hit = raycaster.intersectObjects(planeMeshes.children)[0];
      return hit ? hit.point : null;
    }
    const hitTestSource = hitTestSources.get(source);
    const result = hitTestSource && frame.getHitTestResults(hitTestSource)[0];
    const pose = result?.getPose(localSpace ?? renderer.xr.getReferenceSpace());
    return pose ? new THREE.Vector3().copy(pose.transform.position) : null;
  }

  let meshesBuilt = false;
  renderer.setAnimationLoop((time, frame) => {
    if (planes === 'startup-meshes' && !meshesBuilt && time > 1000) {
      // The room should be scanned by now: one mesh per detected plane, built once.
      for (const plane of frame.detectedPlanes ?? []) planeMeshes.add(planeMesh(plane, frame.getPose(plane.planeSpace, renderer.xr.getReferenceSpace())));
      planeMeshes.updateMatrixWorld(true);
      meshesBuilt = true;
    }
    if (pinched) {
      const point = surfaceHit(frame, pinched);
      pinched = null;
      if (point) {
        cube.position.copy(point).add(new THREE.Vector3(0, HALF, 0));
        scene.add(cube);
        placed = true;
        xrsim.emit('placed', { position: point.toArray() });
      }
    }
    renderer.render(scene, camera);
  });
}

/** A flat mesh of a detected plane's polygon, at the plane's pose. */
function planeMesh(plane, pose) {
  const shape = new THREE.Shape(plane.polygon.map((p) => new THREE.Vector2(p.x, -p.z)));
  const geometry = new THREE.ShapeGeometry(shape).rotateX(-Math.PI / 2);
  const mesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color: 0x88ff88, transparent: true, opacity: 0.2, side: THREE.DoubleSide }));
  if (pose) mesh.matrix.fromArray(pose.transform.matrix);
  mesh.matrix.decompose(mesh.position, mesh.quaternion, mesh.scale);
  return mesh;
}
