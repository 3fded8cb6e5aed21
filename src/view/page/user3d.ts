/**
 * The simulated user in three.js: the head with its view frustum (and the depth camera's), both hands'
 * 26 joints as spheres of their radius joined by bones, the contact probes (coloured by signed distance,
 * with the surface normal), and the controllers with their target rays.
 */
import * as THREE from 'three';
import type { SceneDescription } from '../api-types.js';
import { setPose } from './shapes3d.js';

const JOINT_FLOATS = 8;
const JOINTS = 26;
/** Bones drawn between OpenXR joints: the wrist to each digit's base, then along each digit. */
const BONES: [number, number][] = [];
for (const [base, length] of [[2, 4], [6, 5], [11, 5], [16, 5], [21, 5]] as const) {
  BONES.push([1, base]);
  for (let j = base; j < base + length - 1; j++) BONES.push([j, j + 1]);
}
/** The joint each probe sits on: the five tips, then the palm. */
const PROBE_JOINTS = [5, 10, 15, 20, 25, 0];
const PROBE_FLOATS = 5;
const HAND_COLOURS = [0x8e24aa, 0xef6c00];

/** Lines from a camera's centre to the corners of its image at `far`, looking along −Z. */
function frustumLines(halfWidth: number, halfHeight: number, far: number, colour: number): THREE.LineSegments {
  const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sy]) => [sx * halfWidth * far, sy * halfHeight * far, -far]);
  const points: number[] = [];
  corners.forEach((c, i) => points.push(0, 0, 0, ...c, ...c, ...corners[(i + 1) % 4]));
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
  return new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: colour }));
}

interface HandParts {
  joints: THREE.InstancedMesh;
  bones: THREE.LineSegments;
  /** Drawn joint positions (for the tests and the side panel). */
  positions: Float32Array;
  tracked: boolean;
}

/** The user's objects, updated from a frame's channels. */
export class User3d {
  readonly root = new THREE.Group();
  private readonly head = new THREE.Group();
  private readonly hands: HandParts[] = [];
  private readonly probes: THREE.InstancedMesh;
  private readonly normals: THREE.LineSegments;
  private readonly controllers: { grip: THREE.Mesh; ray: THREE.Group }[] = [];
  private readonly matrix = new THREE.Matrix4();
  private readonly position = new THREE.Vector3();
  private readonly quaternion = new THREE.Quaternion();
  private readonly scale = new THREE.Vector3();
  private readonly colour = new THREE.Color();

  constructor(scene: SceneDescription) {
    this.root.name = 'user';
    const visor = new THREE.Mesh(new THREE.BoxGeometry(0.17, 0.09, 0.1), new THREE.MeshLambertMaterial({ color: 0x37474f }));
    visor.position.z = 0.03;
    const { fovDeg, aspect } = scene.headFrustum;
    const half = Math.tan((fovDeg * Math.PI) / 360);
    this.head.add(visor, frustumLines(half, half / aspect, 0.6, 0x263238));
    this.head.name = 'head';
    const depth = scene.depthCamera;
    if (depth) {
      const camera = frustumLines(depth.width / 2 / depth.fx, depth.height / 2 / depth.fy, 0.4, 0x00897b);
      setPose(camera, depth.mount);
      camera.name = 'depth-camera';
      this.head.add(camera);
    }
    this.root.add(this.head);
    for (let side = 0; side < 2; side++) {
      const joints = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 10, 8), new THREE.MeshLambertMaterial({ color: HAND_COLOURS[side] }), JOINTS);
      joints.name = `hand-${side === 0 ? 'left' : 'right'}`;
      const bones = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: HAND_COLOURS[side] }));
      bones.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(BONES.length * 6), 3));
      joints.visible = bones.visible = false;
      this.root.add(joints, bones);
      this.hands.push({ joints, bones, positions: new Float32Array(JOINTS * 3), tracked: false });
    }
    this.probes = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 8, 6), new THREE.MeshBasicMaterial({ color: 0xffffff }), 12);
    this.normals = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0x1b5e20 }));
    this.normals.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(12 * 6), 3));
    this.probes.visible = this.normals.visible = false;
    // The layer switch hides the group; frames show or hide its parts.
    const probes = new THREE.Group();
    probes.name = 'contact-probes';
    probes.add(this.probes, this.normals);
    this.root.add(probes);
    for (let side = 0; side < 2; side++) {
      const grip = new THREE.Mesh(new THREE.BoxGeometry(0.04, 0.04, 0.12), new THREE.MeshLambertMaterial({ color: HAND_COLOURS[side] }));
      const ray = new THREE.Group();
      const line = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(0, 0, 0), new THREE.Vector3(0, 0, -0.6)]);
      ray.add(new THREE.Line(line, new THREE.LineBasicMaterial({ color: 0xfdd835 })));
      grip.visible = ray.visible = false;
      grip.name = `controller-${side === 0 ? 'left' : 'right'}`;
      this.root.add(grip, ray);
      this.controllers.push({ grip, ray });
    }
  }

  /** Poses everything from a frame's channels (absent channels hide their objects). */
  update(channel: (name: string) => Float32Array | undefined): void {
    const head = channel('head');
    if (head) setPose(this.head, head);
    ['hand-left', 'hand-right'].forEach((name, side) => this.updateHand(this.hands[side], channel(name)));
    this.updateProbes(channel('contacts'));
    ['controller-left', 'controller-right'].forEach((name, side) => {
      const c = channel(name);
      const { grip, ray } = this.controllers[side];
      grip.visible = ray.visible = c !== undefined && c[0] === 1;
      if (!c || c[0] !== 1) return;
      setPose(grip, c, 1);
      setPose(ray, c, 8);
    });
  }

  /** The drawn joint positions of a hand (`null` while it is untracked). */
  jointPositions(side: 0 | 1): number[][] | null {
    const hand = this.hands[side];
    if (!hand.tracked) return null;
    return Array.from({ length: JOINTS }, (_, j) => Array.from(hand.positions.subarray(j * 3, j * 3 + 3)));
  }

  private updateHand(hand: HandParts, c: Float32Array | undefined): void {
    hand.tracked = c !== undefined && c[JOINTS * JOINT_FLOATS] === 1;
    hand.joints.visible = hand.bones.visible = hand.tracked;
    if (!hand.tracked || !c) return;
    for (let j = 0; j < JOINTS; j++) {
      const o = j * JOINT_FLOATS;
      this.position.set(c[o], c[o + 1], c[o + 2]);
      this.quaternion.set(c[o + 3], c[o + 4], c[o + 5], c[o + 6]);
      const r = Math.max(c[o + 7], 0.002);
      this.scale.set(r, r, r);
      hand.joints.setMatrixAt(j, this.matrix.compose(this.position, this.quaternion, this.scale));
      hand.positions.set([c[o], c[o + 1], c[o + 2]], j * 3);
    }
    hand.joints.instanceMatrix.needsUpdate = true;
    hand.joints.computeBoundingSphere();
    const lines = hand.bones.geometry.getAttribute('position') as THREE.BufferAttribute;
    BONES.forEach(([a, b], k) => {
      (lines.array as Float32Array).set(hand.positions.subarray(a * 3, a * 3 + 3), k * 6);
      (lines.array as Float32Array).set(hand.positions.subarray(b * 3, b * 3 + 3), k * 6 + 3);
    });
    lines.needsUpdate = true;
    hand.bones.geometry.computeBoundingSphere();
  }

  /** Probes: red when penetrating, orange within 1 cm, green otherwise; the normal when a surface is near. */
  private updateProbes(c: Float32Array | undefined): void {
    this.probes.visible = this.normals.visible = c !== undefined;
    if (!c) return;
    const lines = this.normals.geometry.getAttribute('position') as THREE.BufferAttribute;
    const out = lines.array as Float32Array;
    for (let k = 0; k < 12; k++) {
      const hand = this.hands[k < 6 ? 0 : 1];
      const j = PROBE_JOINTS[k % 6];
      const o = k * PROBE_FLOATS;
      const distance = c[o];
      const p = hand.positions.subarray(j * 3, j * 3 + 3);
      const size = hand.tracked ? 0.006 : 0;
      this.scale.set(size, size, size);
      this.position.set(p[0], p[1], p[2]);
      this.quaternion.identity();
      this.probes.setMatrixAt(k, this.matrix.compose(this.position, this.quaternion, this.scale));
      this.probes.setColorAt(k, this.colour.set(distance < 0 ? 0xd50000 : distance < 0.01 ? 0xff9100 : 0x2e7d32));
      const near = hand.tracked && c[o + 4] >= 0 && distance < 0.1;
      out.set([p[0], p[1], p[2], p[0] + (near ? c[o + 1] * 0.04 : 0), p[1] + (near ? c[o + 2] * 0.04 : 0), p[2] + (near ? c[o + 3] * 0.04 : 0)], k * 6);
    }
    this.probes.instanceMatrix.needsUpdate = true;
    if (this.probes.instanceColor) this.probes.instanceColor.needsUpdate = true;
    this.probes.computeBoundingSphere();
    lines.needsUpdate = true;
    this.normals.geometry.computeBoundingSphere();
  }
}
