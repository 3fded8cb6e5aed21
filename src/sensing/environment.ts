/**
 * The physical environment while a session runs: surfaces can be added, moved and removed (a table carried
 * in, a door swung, a box taken away). A change reaches every part that knows the surface: the Rapier world,
 * the geometry store that contact and the depth camera read, and plane detection. Each change is recorded
 * as an event, so the stream shows it and replays reproduce it.
 *
 * Commands can be given at any time between steps; they are applied at the start of the next tick, before
 * the user and physics stages, so their effects (and events) belong to that tick.
 */
import { PrimitiveKind } from '../../kernels/scene-geometry.js';
import { XrsimInputError } from '../errors.js';
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import { writeJsonRecord } from '../frame/json-record.js';
import { composePose, partsOf, quatFromEulerDeg, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { validateAgainstDefinition } from '../json/load.js';
import { ownEntry } from '../json/names.js';
import { objectReference } from '../model/references.js';
import type { SimModel } from '../model/types.js';
import { SCENE_SCHEMA } from '../paths.js';
import type { PhysicsWorld } from '../physics/world.js';
import { checkGeometry } from '../scene/load.js';
import type { SurfaceSpec } from '../scene/types.js';
import { formatReference, parseReference, unknownReference } from '../task/references.js';
import type { PlaneDetector } from './planes.js';
import { primitiveOf, type SceneGeometryIndex } from './scene-geometry.js';

/** Where commands are reported from in errors. */
const SOURCE = '<environment command>';

type Command =
  | { kind: 'add'; surface: SurfaceSpec }
  | { kind: 'move'; index: number; pose: Pose }
  | { kind: 'remove'; index: number };

/** A static object the environment knows: its reference, its primitives, and its parts relative to its pose. */
interface KnownSurface {
  /** `scene:<id>` (scene surfaces and surfaces added while running) or `task:<id>` (task fixtures). */
  ref: string;
  label: string;
  primitives: number[];
  parts: { pose: Pose }[];
  removed: boolean;
}

/** The session's environment: runtime changes to its static surfaces. */
export class Environment {
  private readonly surfaces: KnownSurface[];
  private readonly pending: Command[] = [];

  constructor(
    private readonly model: SimModel,
    private readonly scene: SceneGeometryIndex,
    private readonly physics: () => PhysicsWorld,
    private readonly planes: PlaneDetector | null,
    /** Called before the queued commands change the geometry store. */
    private readonly beforeChange: () => void = () => {},
  ) {
    this.surfaces = model.statics.map((s, i) => ({
      ref: objectReference(s.origin, s.id),
      label: s.label,
      primitives: scene.statics[i],
      parts: s.colliders.map((c) => ({ pose: model.colliders[c].localPose })),
      removed: false,
    }));
  }

  /**
   * Adds a surface (a scene surface object: id, label, material from the scene's or the task's materials, position,
   * eulerDeg, shape or parts). It joins the scene: refer to it as `scene:<id>`, which must not be in use.
   * Throws {@link XrsimInputError} on bad input.
   */
  addSurface(surface: SurfaceSpec): void {
    validateAgainstDefinition(SCENE_SCHEMA, 'surface', surface, SOURCE, '');
    checkGeometry(surface, '$', SOURCE);
    if (!this.material(surface.material)) {
      throw new XrsimInputError(`unknown material "${surface.material}"`, {
        file: SOURCE,
        jsonPath: '$.material',
        expected: `one of the scene's or the task's materials: ${[...Object.keys(this.model.sources.scene.materials), ...Object.keys(this.model.sources.task.materials ?? {})].join(', ')}`,
      });
    }
    const ref = objectReference('scene', surface.id);
    const taken = this.surfaces.some((s) => s.ref === ref) || this.pending.some((c) => c.kind === 'add' && c.surface.id === surface.id);
    if (taken) throw new XrsimInputError(`a surface "${ref}" already exists`, { file: SOURCE, jsonPath: '$.id', expected: 'a new id' });
    this.pending.push({ kind: 'add', surface: structuredClone(surface) });
  }

  /** Moves a surface (`scene:<surface id>`, `task:<fixture id>`; added surfaces are `scene:<id>`) to a new pose. */
  moveSurface(ref: string, position: Vec3, eulerDeg?: Vec3): void {
    this.pending.push({ kind: 'move', index: this.indexOf(ref), pose: { position: [...position], rotation: quatFromEulerDeg(eulerDeg) } });
  }

  /** Removes a surface: its collisions, its geometry and its plane go (anchors on it are lost). */
  removeSurface(ref: string): void {
    this.pending.push({ kind: 'remove', index: this.indexOf(ref) });
  }

  /** A material by name: the scene's first, then the task's (task materials travel with the task to any scene). */
  private material(name: string): { friction: number; restitution: number } | undefined {
    return ownEntry(this.model.sources.scene.materials, name) ?? ownEntry(this.model.sources.task.materials, name);
  }

  /** Reference and label of static index `index` (model statics first, then surfaces added while running). */
  surfaceAt(index: number): { ref: string; label: string } | null {
    const s = this.surfaces[index];
    return s ? { ref: s.ref, label: s.label } : null;
  }

  /** References of the surfaces present now (after the commands applied so far). */
  surfaceRefs(): string[] {
    return this.surfaces.filter((s) => !s.removed).map((s) => s.ref);
  }

  /** Applies the queued commands, recording each as an event in `frame`. Called by the session each tick. */
  apply(frame: Frame): void {
    if (this.pending.length === 0) return;
    this.beforeChange();
    for (const command of this.pending) {
      if (command.kind === 'add') this.applyAdd(command.surface, frame);
      else if (command.kind === 'move') this.applyMove(command.index, command.pose, frame);
      else this.applyRemove(command.index, frame);
    }
    this.pending.length = 0;
  }

  private applyAdd(surface: SurfaceSpec, frame: Frame): void {
    const pose: Pose = { position: [...surface.position], rotation: quatFromEulerDeg(surface.eulerDeg) };
    const parts = partsOf(surface);
    const material = this.material(surface.material)!;
    const { index } = this.physics().statics.add(pose, parts, material);
    const primitives = parts.map((part) => {
      const world = composePose(pose, part.pose);
      return this.scene.geometry.add({ ...primitiveOf(part.shape), kind: PrimitiveKind.Static, owner: index, position: world.position, rotation: world.rotation });
    });
    this.surfaces.push({ ref: objectReference('scene', surface.id), label: surface.label, primitives, parts, removed: false });
    this.scene.statics.push(primitives);
    this.planes?.addSurface(index, primitives, surface.label);
    writeJsonRecord(frame, EventType.SurfaceAdded, [index], surface);
  }

  private applyMove(index: number, pose: Pose, frame: Frame): void {
    const surface = this.surfaces[index];
    if (surface.removed) return;
    this.physics().statics.move(index, pose);
    surface.primitives.forEach((p, k) => {
      const world = composePose(pose, surface.parts[k].pose);
      this.scene.geometry.setPose(p, world.position, world.rotation);
    });
    this.planes?.surfaceMoved(index);
    frame.beginRecord(EventType.SurfaceMoved);
    frame.word(index);
    for (const v of [...pose.position, ...pose.rotation]) frame.float(v);
    frame.endRecord();
  }

  private applyRemove(index: number, frame: Frame): void {
    const surface = this.surfaces[index];
    if (surface.removed) return;
    surface.removed = true;
    this.physics().statics.remove(index);
    for (const p of surface.primitives) this.scene.geometry.setEnabled(p, false);
    this.planes?.surfaceRemoved(index, frame);
    frame.beginRecord(EventType.SurfaceRemoved);
    frame.word(index);
    frame.endRecord();
  }

  private indexOf(text: string): number {
    const ref = formatReference(parseReference(text, { accept: ['task', 'scene'], bare: 'scene', file: SOURCE }));
    const index = this.surfaces.findIndex((s) => s.ref === ref && !s.removed);
    if (index < 0) throw unknownReference(ref, 'surface', this.surfaceRefs(), { file: SOURCE });
    return index;
  }
}
