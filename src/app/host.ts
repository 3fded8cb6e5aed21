/**
 * The in-process app host: runs an app module's `setup` once and its `frame` every tick (after sensing),
 * gives it a context on the simulated world, and records what it does. Anything app code throws (an
 * Error, a string, a Symbol, an object whose getters throw) becomes an AppError event with its message
 * and stack, and the frames go on, as in a browser. An async `setup` or `frame` is let settle within its
 * tick ({@link AppHost.settle}), so its rejection is recorded in that tick's frame.
 */
import { describeThrown } from '../errors.js';
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
import { targetRayDirection, XrFrameBuilder } from './xr-frame.js';
import { sanitizeStack } from './stack.js';
import { SessionAppBody, SessionAppContext } from './context.js';
import { SessionAppAudio } from './audio.js';


/** Where and what an app error was (the first one goes in a session's result). */
export interface AppErrorSummary {
  tick: number;
  /** `setup`, `frame` or `tag` (a tag's poseOf threw). */
  phase: string;
  /** At most 2,000 characters. */
  message: string;
}

/** How the host treats an app's promises. */
export interface AppHostOptions {
  /**
   * The app is the host's own bridge to an app elsewhere (a browser page): its `frame` only hands the tick
   * on, a promise it returns (while the page starts) is awaited to the end by {@link AppHost.settle} and a
   * rejection is the harness's failure (the session errors), not the app's. What the app did in a tick
   * comes in later, through {@link AppHost.applyBridged}, which also publishes the tags. Errors of the app
   * itself come in through {@link AppHost.recordPageError}.
   */
  blocking?: boolean;
}

/** One session's app. */
export class AppHost {
  readonly tags = new TagRegistry();
  /** `ctx.audio`: the app's voices, recorded with its tags. */
  readonly audio: SessionAppAudio = new SessionAppAudio(this);
  private readonly eventCounts = new Map<string, number>();
  private readonly builder: XrFrameBuilder;
  private readonly ctx: AppContext;
  private readonly bodies = new Map<string, AppBody>();
  private frame: Frame | null = null;
  /** Hit-test sources the app requested, tested every frame (results are not recorded: they are per frame). */
  private readonly hitSources = new Set<HitTestSource>();
  /** Simulation time of the tick the app is running (what `ctx.time` reads). */
  time = 0;
  private tick = 0;
  /** App errors so far (for tools and tests). */
  errors = 0;
  /** The first app error: where and what (for a run's summary). */
  firstError: AppErrorSummary | null = null;
  /** Whether the app returned a promise this tick (an async `setup` or `frame`) that should settle before the frame commits. */
  awaiting = false;
  /** Rejections of those promises, in the order they settled, not yet recorded. */
  private readonly rejections: { phase: string; err: unknown }[] = [];
  /** A blocking app's work of this tick (its setup's too, at tick 0). */
  private pending: Promise<unknown> | null = null;
  readonly blocking: boolean;

  constructor(
    private readonly app: AppModule,
    model: SimModel,
    private readonly physics: () => PhysicsWorld,
    private readonly sensing: Sensing,
    random: RandomStream,
    options: AppHostOptions = {},
  ) {
    this.blocking = options.blocking ?? false;
    this.builder = new XrFrameBuilder(sensing, model.user.ipd, model.user.shoulderOffset);
    this.ctx = new SessionAppContext(this, model.timing.dt, random, sensing, this.hitSources);
  }

  /** How many times the app emitted `name`. */
  eventCount(name: string): number {
    return this.eventCounts.get(name) ?? 0;
  }

  /** Runs `setup` (frame 0). */
  setup(frame: Frame): void {
    this.frame = frame;
    this.time = frame.time;
    this.tick = 0;
    this.awaiting = false;
    if (this.app.setup) this.guard('setup', () => this.app.setup!(this.ctx));
    if (!this.blocking) this.publish(frame);
    this.frame = null;
  }

  /** Runs `frame` for the current tick, then publishes the tags. */
  run(frame: Frame, tick: number, time: number): void {
    this.frame = frame;
    this.time = time;
    this.tick = tick;
    // Rejections that settled after their own tick (a session stepped by hand with `step()`).
    this.recordRejections();
    if (tick > 0) this.awaiting = false;
    const xr = this.builder.build(frame);
    xr.tick = tick;
    xr.time = time;
    const results = new Map<HitTestSource, HitTestResult[]>();
    for (const source of this.hitSources) {
      const pose = source.space === 'viewer' ? xr.viewerPose : source.space.targetRayPose;
      if (!pose || (source.space !== 'viewer' && !xr.inputSources.includes(source.space))) continue;
      const { position: p } = pose.transform;
      // The ray runs along the space's −Z axis.
      const forward = targetRayDirection(pose.transform);
      results.set(source, this.sensing.hitTest([p.x, p.y, p.z], forward, { entityTypes: source.entityTypes, record: false }));
    }
    // Made first, then assigned: `xr.x = () => ...` would allocate the closure in old space (docs/SWEEPS.md).
    const hitTestResults = (source: HitTestSource) => results.get(source) ?? [];
    xr.getHitTestResults = hitTestResults;
    this.audio.expire(time);
    this.guard('frame', () => this.app.frame(xr, this.ctx));
    if (!this.blocking) this.publish(frame);
    this.frame = null;
  }

  /** Records an error the app made where the host cannot catch it itself (a page's exception, a refused request). */
  recordPageError(kind: string, message: string, stack: string): void {
    this.errors++;
    this.firstError ??= { tick: this.tick, phase: 'page', message: `${kind}: ${message}`.slice(0, 2000) };
    if (!this.frame) return;
    writeJsonRecord(this.frame, EventType.AppError, [], { phase: 'page', kind, message: message.slice(0, 2000), stack });
  }

  /** Records how a browser app's session started (`EventType.PageStart`), in the frame being applied (frame 0). */
  recordPageStart(start: object): void {
    if (this.frame) writeJsonRecord(this.frame, EventType.PageStart, [], start);
  }

  /**
   * Lets the promises the app returned this tick settle, then records their rejections in `frame`. A
   * macrotask (`setImmediate`) runs only after every microtask queued before it, so any promise chain that
   * waits on nothing outside the session (no timer, no I/O) has settled by then: the same ticks record the
   * same rejections on every run. The session awaits this before committing the frame.
   */
  async settle(frame: Frame): Promise<void> {
    if (this.blocking) {
      this.frame = frame;
      const pending = this.pending;
      this.pending = null;
      try {
        await pending; // a rejection is the harness's: the session errors
      } finally {
        this.frame = null;
      }
      this.awaiting = false;
      return; // the host's own bridge: no app promise left to let settle
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.awaiting = false;
    this.frame = frame;
    this.recordRejections();
    this.frame = null;
  }

  /**
   * A bridged app's work of the tick `frame` holds (the session may have stepped ahead since, and restored
   * this frame): `apply` publishes what the app did through the context, then the tags are published.
   */
  applyBridged(frame: Frame, apply: () => void): void {
    this.frame = frame;
    this.tick = frame.tick;
    this.time = frame.time;
    try {
      apply();
      this.publish(frame);
    } finally {
      this.frame = null;
    }
  }

  /** Records the app's state after its frame: its tags' poses, then what its voices did. */
  private publish(frame: Frame): void {
    this.tags.publish(frame, (err, role) => this.recordError('tag', err, role));
    this.audio.flush(frame);
  }

  private guard(phase: string, fn: () => unknown): void {
    try {
      const returned = fn();
      if (this.blocking && isThenable(returned)) {
        this.awaiting = true;
        const before = this.pending;
        this.pending = before ? Promise.all([before, returned]) : Promise.resolve(returned);
        this.pending.catch(() => undefined); // awaited by settle; never an unhandled rejection meanwhile
      } else if (isThenable(returned)) this.watch(phase, returned);
    } catch (err) {
      this.recordError(phase, err);
    }
  }

  /** Catches a returned promise's rejection (which would otherwise be lost, or kill the worker) for recording. */
  private watch(phase: string, returned: PromiseLike<unknown>): void {
    this.awaiting = true;
    Promise.resolve(returned).then(undefined, (err: unknown) => this.rejections.push({ phase, err }));
  }

  private recordRejections(): void {
    for (const { phase, err } of this.rejections.splice(0)) this.recordError(phase, err, undefined, true);
  }

  private recordError(phase: string, err: unknown, role?: string, async = false): void {
    this.errors++;
    const { message, stack } = describeThrown(err);
    this.firstError ??= { tick: this.tick, phase, message };
    if (!this.frame) return;
    writeJsonRecord(this.frame, EventType.AppError, [], {
      phase,
      ...(role ? { tag: role } : {}),
      ...(async ? { async: true } : {}),
      message,
      stack: sanitizeStack(stack),
    });
  }

  /** `ctx.emit`: records an app event. */
  emit(name: string, data: unknown): void {
    if (typeof name !== 'string' || name === '') throw new TypeError('ctx.emit(name, data): name must be a non-empty string');
    if (this.frame) {
      try {
        writeJsonRecord(this.frame, EventType.AppEvent, [], data === undefined ? { name } : { name, data });
      } catch (err) {
        if (err instanceof RangeError) throw new RangeError(`ctx.emit(name, data): ${err.message}`);
        throw err; // JSON.stringify's own: a cycle, a BigInt
      }
    }
    this.eventCounts.set(name, this.eventCount(name) + 1);
  }

  /** `ctx.addBody`: adds an app body to the physics world. */
  addBody(id: string, o: AppBodyOptions): AppBody {
    if (this.bodies.has(id) && !this.bodies.get(id)!.removed) throw new Error(`ctx.addBody: an app body "${id}" already exists`);
    const physics = this.physics();
    const handle = physics.appBodies.add(o.shape, { position: [...o.position], rotation: o.rotation ?? [0, 0, 0, 1] }, {
      mass: o.mass ?? 0.1,
      friction: o.friction ?? 0.5,
      restitution: o.restitution ?? 0.3,
      kinematic: o.kinematic ?? false,
      handContact: o.handContact ?? false,
      gravityScale: o.gravityScale ?? 1,
      velocity: o.velocity ?? [0, 0, 0],
    });
    const body = new SessionAppBody(id, handle, physics, this.sensing.environment);
    this.bodies.set(id, body);
    return body;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
  } catch {
    return false; // a getter on `then` that throws: not a promise the app meant
  }
}
