/**
 * The world in three.js: the room's statics, trigger volumes and bodies (posed from the `bodies` channel),
 * surfaces added, moved or removed at run time, and detected planes, both as they were at the tick shown
 * (from the timeline's records).
 */
import * as THREE from 'three';
import type { ObjectDescription, PlaneRecord, SceneDescription, SurfaceRecord } from '../api-types.js';
import { colourOf, objectGroup, objectMaterial, setPose } from './shapes3d.js';

const POSE_FLOATS = 7;

/** The latest record at or before `tick` among records in tick order. */
function latestAt<T extends { tick: number }>(records: readonly T[], tick: number): T | undefined {
  let found: T | undefined;
  for (const r of records) {
    if (r.tick > tick) break;
    found = r;
  }
  return found;
}

/** Group records by a key, keeping tick order. */
function groupBy<T>(records: readonly T[], key: (r: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const r of records) {
    const list = groups.get(key(r)) ?? [];
    list.push(r);
    groups.set(key(r), list);
  }
  return groups;
}

export class World3d {
  readonly root = new THREE.Group();
  /** Per body slot, its group. */
  private readonly bodies: THREE.Group[] = [];
  /** By label: statics to hide or show together (walls, ceiling). */
  readonly byLabel = new Map<string, THREE.Object3D[]>();
  private readonly staticsByIndex = new Map<number, THREE.Group>();
  private planeHistory = new Map<number, PlaneRecord[]>();
  private readonly planes = new Map<number, { record: PlaneRecord; object: THREE.Object3D }>();
  private surfaceHistory = new Map<number, SurfaceRecord[]>();
  private readonly surfaces = new Map<number, { added: SurfaceRecord; object: THREE.Group }>();
  readonly planesRoot = new THREE.Group();

  constructor(scene: SceneDescription) {
    this.root.name = 'world';
    this.planesRoot.name = 'planes';
    for (const description of scene.objects) {
      const group = objectGroup(description, objectMaterial(description));
      this.root.add(group);
      if (description.kind === 'body') this.bodies[description.index] = group;
      if (description.kind === 'static') this.staticsByIndex.set(description.index, group);
      const list = this.byLabel.get(description.label) ?? [];
      list.push(group);
      this.byLabel.set(description.label, list);
    }
    const [x, , z] = scene.room;
    const grid = new THREE.GridHelper(Math.max(x, z), Math.round(Math.max(x, z) * 2), 0x90a4ae, 0xcfd8dc);
    grid.position.y = 0.001;
    this.root.add(grid, this.planesRoot);
  }

  /** Records from the timeline (available some time after the first frame is drawn). */
  setHistory(planes: readonly PlaneRecord[], surfaces: readonly SurfaceRecord[]): void {
    this.planeHistory = groupBy(planes, (r) => r.plane);
    this.surfaceHistory = groupBy(surfaces, (r) => r.surface);
  }

  /** Poses bodies from the `bodies` channel and brings planes and surfaces to `tick`. */
  update(tick: number, bodies: Float32Array | undefined): void {
    if (bodies) this.bodies.forEach((group, slot) => group && setPose(group, bodies, slot * POSE_FLOATS));
    this.updatePlanes(tick);
    this.updateSurfaces(tick);
  }

  /** How many detected planes are drawn. */
  get planeCount(): number {
    return this.planes.size;
  }

  private updatePlanes(tick: number): void {
    for (const [id, records] of this.planeHistory) {
      const record = latestAt(records, tick);
      const shown = this.planes.get(id);
      if (shown?.record === record) continue;
      if (shown) {
        this.planesRoot.remove(shown.object);
        this.planes.delete(id);
      }
      if (!record || record.pose === null) continue;
      const object = planeObject(record);
      this.planesRoot.add(object);
      this.planes.set(id, { record, object });
    }
  }

  private updateSurfaces(tick: number): void {
    for (const [surface, records] of this.surfaceHistory) {
      const upTo = records.filter((r) => r.tick <= tick);
      const added = [...upTo].reverse().find((r) => r.kind === 'added');
      const last = upTo[upTo.length - 1];
      // A model static moved or removed at run time, or a surface added at run time.
      const target = added ? this.runtimeSurface(surface, added) : this.staticsByIndex.get(surface);
      if (!added) this.surfaces.get(surface)?.object.removeFromParent();
      if (!target) continue;
      target.visible = last?.kind !== 'removed';
      const moved = [...upTo].reverse().find((r) => r.kind === 'moved' || r.kind === 'added');
      if (moved?.kind === 'moved' && moved.pose) setPose(target, moved.pose);
      else if (moved?.kind === 'added' && moved.object) setPose(target, moved.object.pose);
    }
  }

  private runtimeSurface(surface: number, added: SurfaceRecord): THREE.Group {
    const shown = this.surfaces.get(surface);
    if (shown?.added === added) return shown.object;
    shown?.object.removeFromParent();
    const description = added.object as ObjectDescription;
    const object = objectGroup(description, objectMaterial(description));
    this.root.add(object);
    this.surfaces.set(surface, { added, object });
    return object;
  }
}

/** A detected plane: its polygon (plane space XZ, normal +Y) filled and outlined. */
function planeObject(record: PlaneRecord): THREE.Object3D {
  const group = new THREE.Group();
  group.name = `plane-${record.plane}`;
  if (record.polygon.length >= 3) {
    const outline = new THREE.Shape(record.polygon.map(([x, z]) => new THREE.Vector2(x, z)));
    const fill = new THREE.ShapeGeometry(outline);
    fill.rotateX(Math.PI / 2);
    const colour = colourOf(record.label === 'floor' ? [0, 150, 136] : record.label === 'wall' ? [63, 81, 181] : [255, 152, 0]);
    const mesh = new THREE.Mesh(fill, new THREE.MeshBasicMaterial({ color: colour, transparent: true, opacity: 0.35, side: THREE.DoubleSide, depthWrite: false }));
    mesh.position.y = 0.004;
    const points = record.polygon.map(([x, z]) => new THREE.Vector3(x, 0.006, z));
    const line = new THREE.LineLoop(new THREE.BufferGeometry().setFromPoints(points), new THREE.LineBasicMaterial({ color: colour }));
    group.add(mesh, line);
  }
  setPose(group, record.pose!);
  return group;
}
