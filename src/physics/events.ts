/**
 * Collision events in a fixed order: Rapier reports contacts and sensor crossings by handle, in its own
 * order; each becomes a record of model collider indices `a < b`, and a substep's records are sorted by
 * (a, b, type), so the frame never depends on Rapier's internals.
 */
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import type { ColliderIndex } from './colliders.js';
import type { Rapier, RapierEventQueue, RapierWorld } from './rapier.js';

/** Drains a Rapier event queue into frames, in (a, b, type) order. Allocation-free. */
export class CollisionEvents {
  private target: Frame | undefined;
  /**
   * Bound once: passing a fresh closure every substep would allocate. A field initializer, not assigned in
   * the constructor: V8 allocates `this.x = () => ...` in old space, where it keeps the session reachable.
   */
  private readonly onCollision = (h1: number, h2: number, started: boolean): void => this.record(h1, h2, started);
  /** The world's gravity as Rapier's raw vector, made once. */
  private readonly gravity: ReturnType<Rapier['VectorOps']['intoRaw']>;

  constructor(
    rapier: Rapier,
    private readonly world: RapierWorld,
    private readonly colliders: ColliderIndex,
    private readonly queue: RapierEventQueue,
  ) {
    this.gravity = rapier.VectorOps.intoRaw(world.gravity);
  }

  /** Runs one Rapier step and appends its events to `frame`, sorted. */
  step(frame: Frame): void {
    this.target = frame;
    const first = frame.eventWords;
    const w = this.world;
    // What World.step does, through the raw pipeline: without its bookkeeping of soft bodies (it walks
    // every collider through a JS callback after each step, a third of the step's cost here; sessions
    // create no soft bodies, and the engine creates rigid bodies and colliders only for soft-body tears),
    // and with the gravity vector converted once rather than allocated and freed every step.
    w.physicsPipeline.raw.stepWithEvents(
      this.gravity, w.integrationParameters.raw, w.islands.raw, w.broadPhase.raw, w.narrowPhase.raw, w.bodies.raw, w.colliders.raw,
      w.softBodies.raw, w.impulseJoints.raw, w.multibodyJoints.raw, w.ccdSolver.raw, this.queue.raw, undefined as unknown as object, null as unknown as Function, null as unknown as Function,
    );
    this.queue.drainCollisionEvents(this.onCollision);
    sortEventRecords(frame.events, first, frame.eventWords);
    this.target = undefined;
  }

  /** Releases the raw gravity vector. */
  free(): void {
    this.gravity.free();
  }

  private record(h1: number, h2: number, started: boolean): void {
    const i1 = this.colliders.ofHandle.get(h1) ?? 0xffffffff;
    const i2 = this.colliders.ofHandle.get(h2) ?? 0xffffffff;
    const a = i1 < i2 ? i1 : i2;
    const b = i1 < i2 ? i2 : i1;
    const sensor = this.colliders.sensor[i1] === 1 || this.colliders.sensor[i2] === 1;
    const type = sensor
      ? started ? EventType.SensorEnter : EventType.SensorExit
      : started ? EventType.ContactStart : EventType.ContactStop;
    this.target!.pushEvent2(type, a, b);
  }
}

/**
 * Sorts the 3-word physics records in `events[from, to)` by (a, b, type). Insertion sort: a tick has few
 * events and they arrive nearly sorted, and it allocates nothing.
 */
export function sortEventRecords(events: Uint32Array, from: number, to: number): void {
  for (let i = from + 3; i < to; i += 3) {
    const h = events[i];
    const a = events[i + 1];
    const b = events[i + 2];
    let j = i - 3;
    while (j >= from && compareRecord(events[j + 1], events[j + 2], events[j], a, b, h) > 0) {
      events[j + 3] = events[j];
      events[j + 4] = events[j + 1];
      events[j + 5] = events[j + 2];
      j -= 3;
    }
    events[j + 3] = h;
    events[j + 4] = a;
    events[j + 5] = b;
  }
}

function compareRecord(a1: number, b1: number, h1: number, a2: number, b2: number, h2: number): number {
  return a1 - a2 || b1 - b2 || h1 - h2;
}
