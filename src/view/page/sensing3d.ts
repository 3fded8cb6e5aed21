/**
 * What the headset sensed and what the app tagged: the latest depth image as a point cloud in the world
 * (from the depth camera's pose at the tick it was taken), and the app's tagged objects with their axes.
 */
import * as THREE from 'three';
import { EventType, POSE_WORDS, TAG_POSE_RECORD as TR, TAG_POSES_PAYLOAD } from '../../frame/events.js';
import type { DepthCameraDescriptor } from '../../frame/layout.js';

/** Depth image pixels skipped between points (every pixel of a 160 × 120 image is 19 200 points). */
const STRIDE = 1;

export class DepthCloud {
  /** The layer switch hides this group; frames without an image hide the points in it. */
  readonly root = new THREE.Group();
  readonly points: THREE.Points;
  private readonly positions: Float32Array;
  private readonly colours: Float32Array;
  private readonly cameraPose = new THREE.Matrix4();
  private readonly point = new THREE.Vector3();
  private readonly mount = new THREE.Matrix4();
  private readonly head = new THREE.Matrix4();
  private readonly colour = new THREE.Color();
  /** Points with a reading in the image drawn. */
  count = 0;

  constructor(private readonly camera: DepthCameraDescriptor) {
    const n = Math.ceil(camera.width / STRIDE) * Math.ceil(camera.height / STRIDE);
    this.positions = new Float32Array(n * 3);
    this.colours = new Float32Array(n * 3);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(this.colours, 3));
    this.points = new THREE.Points(geometry, new THREE.PointsMaterial({ size: 0.012, vertexColors: true }));
    this.points.name = 'depth-cloud';
    this.points.frustumCulled = false;
    this.root.add(this.points);
    const m = camera.mount;
    this.mount.compose(new THREE.Vector3(m[0], m[1], m[2]), new THREE.Quaternion(m[3], m[4], m[5], m[6]), new THREE.Vector3(1, 1, 1));
  }

  /** Shows `image` (u16 mm) taken with the head at `head` (seven numbers); null hides the cloud. */
  update(image: Uint16Array | null, head: ArrayLike<number> | undefined): void {
    this.points.visible = image !== null && head !== undefined;
    if (!image || !head) return;
    const { width, height, fx, fy, cx, cy, rawValueToMeters } = this.camera;
    this.head.compose(new THREE.Vector3(head[0], head[1], head[2]), new THREE.Quaternion(head[3], head[4], head[5], head[6]), new THREE.Vector3(1, 1, 1));
    this.cameraPose.multiplyMatrices(this.head, this.mount);
    let n = 0;
    for (let row = 0; row < height; row += STRIDE) {
      for (let col = 0; col < width; col += STRIDE) {
        const raw = image[row * width + col];
        if (raw === 0) continue;
        const z = raw * rawValueToMeters;
        // Pixel centres; image rows go down, camera Y goes up, the camera looks along −Z.
        this.point.set(((col + 0.5 - cx) / fx) * z, -((row + 0.5 - cy) / fy) * z, -z).applyMatrix4(this.cameraPose);
        this.positions.set([this.point.x, this.point.y, this.point.z], n * 3);
        this.colour.setHSL(Math.min(z / 4, 1) * 0.7, 0.9, 0.5);
        this.colours.set([this.colour.r, this.colour.g, this.colour.b], n * 3);
        n++;
      }
    }
    this.count = n;
    const geometry = this.points.geometry;
    geometry.setDrawRange(0, n);
    geometry.getAttribute('position').needsUpdate = true;
    geometry.getAttribute('color').needsUpdate = true;
  }
}

/** The app's tagged objects: a small marker with axes per tag present in the frame. */
export class Tags3d {
  readonly root = new THREE.Group();
  private readonly markers = new Map<number, THREE.Object3D>();
  private readonly floats = new Float32Array(1);
  private readonly words = new Uint32Array(this.floats.buffer);
  /** Tags present in the frame shown: index → position. */
  readonly present = new Map<number, number[]>();

  constructor() {
    this.root.name = 'tags';
  }

  /** Reads the frame's TagPoses record (if any) and poses the markers. */
  update(events: Uint32Array): void {
    this.present.clear();
    for (let i = 0; i < events.length; i += 1 + (events[i] & 0xffff)) {
      if (events[i] >>> 16 !== EventType.TagPoses) continue;
      const count = events[i + 1 + TAG_POSES_PAYLOAD.count];
      for (let k = 0, o = i + 1 + TAG_POSES_PAYLOAD.records; k < count; k++, o += TR.words) {
        if (events[o + TR.present] !== 1) continue;
        const pose = Array.from({ length: POSE_WORDS }, (_, j) => this.float(events[o + TR.pose + j]));
        const tag = events[o + TR.tag];
        this.marker(tag).position.set(pose[0], pose[1], pose[2]);
        this.marker(tag).quaternion.set(pose[3], pose[4], pose[5], pose[6]);
        this.present.set(tag, pose.slice(0, 3));
      }
    }
    for (const [index, marker] of this.markers) marker.visible = this.present.has(index);
  }

  private float(word: number): number {
    this.words[0] = word;
    return this.floats[0];
  }

  private marker(index: number): THREE.Object3D {
    let marker = this.markers.get(index);
    if (!marker) {
      marker = new THREE.Group();
      marker.name = `tag-${index}`;
      marker.add(new THREE.Mesh(new THREE.OctahedronGeometry(0.04), new THREE.MeshBasicMaterial({ color: 0xd81b60, wireframe: true })));
      marker.add(new THREE.AxesHelper(0.12));
      this.root.add(marker);
      this.markers.set(index, marker);
    }
    return marker;
  }
}
