/**
 * The in-process app host: runs an app module's `setup` once and its `frame` every tick (after sensing),
 * gives it a context on the simulated world, and records what it does. An exception in app code becomes
 * an AppError event with its stack, and the frames go on, as in a browser.
 */
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import { writeJsonRecord } from '../frame/json-record.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { PhysicsWorld } from '../physics/world.js';
import type { RandomStream } from '../random.js';
import type { Sensing } from '../sensing/sensing.js';
import { TagRegistry } from './tags.js';
import type { HitTestResult } from '../sensing/hit-test.js';
import type { AppBody, AppBodyOptions, AppContext, AppModule, HitTestSource } from './types.js';
import { XrFrameBuilder } from './xr-frame.js';

/** Stack lines kept in an AppError record. */
const STACK_LINES = 4;

/** One session's app. */
export class AppHost {
  readonly tags = new TagRegistry();
  private readonly eventCounts = new Map<string, number>();
  private readonly builder: XrFrameBuilder;
  private readonly ctx: AppContext;
  private readonly bodies = new Map<string, AppBody>();
  private frame: Frame | null = null;
  /** Hit-test sources the app requested, tested every frame (results are not recorded: they are per frame). */
  private readonly hitSources = new Set<HitTestSource>();
  private time = 0;
  /** App errors so far (for tools and tests). */
  errors = 0;

  constructor(
    private readonly app: AppModule,
    model: SimModel,
    private readonly physics: () => PhysicsWorld,
    private readonly sensing: Sensing,
    random: RandomStream,
  ) {
    this.builder = new XrFrameBuilder(sensing, model.user.ipd);
    const host = this;
    this.ctx = {
      state: {},
      get time() {
        return host.time;
      },
      dt: model.timing.dt,
      random: () => random.next(),
      addBody: (id, options) => this.addBody(id, options),
      tag: (role, id, poseOf) => this.tags.tag(role, id, poseOf),
      untag: (role) => this.tags.untag(role),
      emit: (name, data) => this.emit(name, data),
      requestHitTest: (origin, direction, options) => sensing.hitTest(origin, direction, { entityTypes: options?.entityTypes }),
      requestHitTestSource: (options) => {
        const source: HitTestSource = {
          space: options.space,
          entityTypes: options.entityTypes ?? ['plane'],
          cancel: () => this.hitSources.delete(source),
        };
        this.hitSources.add(source);
        return source;
      },
      createAnchor: (pose, plane) => sensing.createAnchor(pose, plane),
    };
  }

  /** How many times the app emitted `name`. */
  eventCount(name: string): number {
    return this.eventCounts.get(name) ?? 0;
  }

  /** Runs `setup` (frame 0). */
  setup(frame: Frame): void {
    this.frame = frame;
    this.time = frame.time;
    if (this.app.setup) this.guard('setup', () => this.app.setup!(this.ctx));
    this.tags.publish(frame, (err, role) => this.recordError('tag', err, role));
    this.frame = null;
  }

  /** Runs `frame` for the current tick, then publishes the tags. */
  run(frame: Frame, tick: number, time: number): void {
    this.frame = frame;
    this.time = time;
    const xr = this.builder.build(frame);
    xr.tick = tick;
    xr.time = time;
    const results = new Map<HitTestSource, HitTestResult[]>();
    for (const source of this.hitSources) {
      const pose = source.space === 'viewer' ? xr.viewerPose : source.space.targetRayPose;
      if (!pose || (source.space !== 'viewer' && !xr.inputSources.includes(source.space))) continue;
      const { position: p, orientation: q } = pose.transform;
      // The ray runs along the space's −Z axis.
      const forward: Vec3 = [-2 * (q.x * q.z + q.w * q.y), -2 * (q.y * q.z - q.w * q.x), -(1 - 2 * (q.x * q.x + q.y * q.y))];
      results.set(source, this.sensing.hitTest([p.x, p.y, p.z], forward, { entityTypes: source.entityTypes, record: false }));
    }
    xr.getHitTestResults = (source) => results.get(source) ?? [];
    this.guard('frame', () => this.app.frame(xr, this.ctx));
    this.tags.publish(frame, (err, role) => this.recordError('tag', err, role));
    this.frame = null;
  }

  private guard(phase: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.recordError(phase, err);
    }
  }

  private recordError(phase: string, err: unknown, role?: string): void {
    this.errors++;
    if (!this.frame) return;
    const error = err instanceof Error ? err : new Error(String(err));
    writeJsonRecord(this.frame, EventType.AppError, [], {
      phase,
      ...(role ? { tag: role } : {}),
      message: error.message,
      stack: sanitizeStack(error.stack ?? ''),
    });
  }

  private emit(name: string, data: unknown): void {
    if (typeof name !== 'string' || name === '') throw new TypeError('ctx.emit(name, data): name must be a non-empty string');
    this.eventCounts.set(name, this.eventCount(name) + 1);
    if (this.frame) writeJsonRecord(this.frame, EventType.AppEvent, [], data === undefined ? { name } : { name, data });
  }

  private addBody(id: string, o: AppBodyOptions): AppBody {
    if (this.bodies.has(id) && !this.bodies.get(id)!.removed) throw new Error(`ctx.addBody: an app body "${id}" already exists`);
    const physics = this.physics();
    const handle = physics.addAppBody(o.shape, { position: [...o.position], rotation: o.rotation ?? [0, 0, 0, 1] }, {
      mass: o.mass ?? 0.1,
      friction: o.friction ?? 0.5,
      restitution: o.restitution ?? 0.3,
      kinematic: o.kinematic ?? false,
      handContact: o.handContact ?? false,
      gravityScale: o.gravityScale ?? 1,
      velocity: o.velocity ?? [0, 0, 0],
    });
    let removed = false;
    const environment = this.sensing.environment;
    const alive = () => {
      if (removed) throw new Error(`app body "${id}" was removed`);
    };
    const body: AppBody = {
      id,
      position: () => (alive(), physics.appBodyState(handle).position),
      rotation: () => (alive(), physics.appBodyState(handle).rotation),
      linearVelocity: () => (alive(), physics.appBodyState(handle).velocity),
      setPose: (position: Vec3, rotation) => (alive(), physics.setAppBodyPose(handle, { position: [...position], rotation: rotation ?? physics.appBodyState(handle).rotation })),
      setVelocity: (velocity) => (alive(), physics.setAppBodyVelocity(handle, velocity)),
      touching: () => (alive(), physics.touchingStatics(handle).map((s) => environment.surfaceAt(s)!).filter(Boolean)),
      remove: () => {
        if (removed) return;
        removed = true;
        physics.removeAppBody(handle);
      },
      get removed() {
        return removed;
      },
    };
    this.bodies.set(id, body);
    return body;
  }
}

/** The first stack lines, with file paths cut to their base names (streams must not depend on where a checkout lives). */
export function sanitizeStack(stack: string): string {
  return stack
    .split('\n')
    .slice(0, STACK_LINES)
    .map((line) => line.replace(/(?:file:\/\/)?(?:[A-Za-z]:)?[\\/][^\s():]*[\\/]([^\s\\/():]+)/g, '$1').trim())
    .join('\n');
}
