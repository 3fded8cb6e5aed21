/**
 * The objects an app holds during its session: its context (`ctx`) and the bodies it adds.
 *
 * Both are class instances whose one getter (`ctx.time`, `body.removed`) lives on a shared prototype. An
 * object literal with a getter of its own would do the same job, but V8 gives each such literal a map of its
 * own, and a map stays until the next full collection: a dead session's map keeps that session's whole
 * graph (its physics world, its senses) alive through every young-generation collection until then. That
 * made every session cost its size again in garbage collection (docs/SWEEPS.md, "Per-session garbage").
 *
 * The methods stay own properties bound to their session, so an app may pass them around
 * (`const { emit } = ctx`). The prototypes are frozen: an app cannot change them for later sessions.
 * The methods are made in an object literal and copied in, never written `this.emit = () => ...`: V8
 * allocates a function literal assigned straight to a property in old space (it expects it to live long),
 * and that closure would keep its session reachable through young collections too.
 */
import type { Vec3 } from '../geometry/types.js';
import type { PhysicsWorld } from '../physics/world.js';
import type { RandomStream } from '../random.js';
import type { Environment } from '../sensing/environment.js';
import type { Sensing } from '../sensing/sensing.js';
import type { AppAudio, AppBody, AppBodyOptions, AppContext, HitTestSource } from './types.js';

/** What the context needs of its host (`AppHost`). */
export interface AppContextHost {
  readonly time: number;
  readonly tags: { tag: AppContext['tag']; untag: AppContext['untag'] };
  readonly audio: AppAudio;
  addBody(id: string, options: AppBodyOptions): AppBody;
  emit(name: string, data: unknown): void;
}

type AppContextMethods = Pick<AppContext, 'random' | 'addBody' | 'tag' | 'untag' | 'emit' | 'requestHitTest' | 'requestHitTestSource' | 'createAnchor'>;
type AppBodyMethods = Pick<AppBody, 'position' | 'rotation' | 'linearVelocity' | 'setPose' | 'setVelocity' | 'touching' | 'remove'>;

/** An app's `ctx`: its methods are own properties, set in the constructor. */
export interface SessionAppContext extends AppContextMethods {}
export class SessionAppContext implements AppContext {
  readonly state: Record<string, unknown> = {};
  readonly audio: AppAudio;
  readonly #host: AppContextHost;

  constructor(host: AppContextHost, readonly dt: number, random: RandomStream, sensing: Sensing, hitSources: Set<HitTestSource>) {
    this.#host = host;
    this.audio = host.audio;
    Object.assign(this, {
      random: () => random.next(),
      addBody: (id, options) => host.addBody(id, options),
      tag: (role, id, poseOf, extent) => host.tags.tag(role, id, poseOf, extent),
      untag: (role) => host.tags.untag(role),
      emit: (name, data) => host.emit(name, data),
      requestHitTest: (origin, direction, options) => sensing.hitTest(origin, direction, { entityTypes: options?.entityTypes }),
      requestHitTestSource: (options) => {
        const source: HitTestSource = {
          space: options.space,
          entityTypes: options.entityTypes ?? ['plane'],
          cancel: () => hitSources.delete(source),
        };
        hitSources.add(source);
        return source;
      },
      createAnchor: (pose, plane) => sensing.createAnchor(pose, plane),
    } satisfies AppContextMethods);
  }

  /** Simulation time of the tick being run. */
  get time(): number {
    return this.#host.time;
  }
}
Object.freeze(SessionAppContext.prototype);

/** A body an app added with `ctx.addBody`: its methods are own properties, set in the constructor. */
export interface SessionAppBody extends AppBodyMethods {}
export class SessionAppBody implements AppBody {
  #removed = false;

  constructor(readonly id: string, handle: number, physics: PhysicsWorld, environment: Environment) {
    const alive = () => {
      if (this.#removed) throw new Error(`app body "${id}" was removed`);
    };
    const bodies = physics.appBodies;
    Object.assign(this, {
      position: () => (alive(), bodies.state(handle).position),
      rotation: () => (alive(), bodies.state(handle).rotation),
      linearVelocity: () => (alive(), bodies.state(handle).velocity),
      setPose: (position: Vec3, rotation) => (alive(), bodies.setPose(handle, { position: [...position], rotation: rotation ?? bodies.state(handle).rotation })),
      setVelocity: (velocity) => (alive(), bodies.setVelocity(handle, velocity)),
      touching: () => (alive(), bodies.touchingStatics(handle).map((s) => environment.surfaceAt(s)!).filter(Boolean)),
      remove: () => {
        if (this.#removed) return;
        this.#removed = true;
        bodies.remove(handle);
      },
    } satisfies AppBodyMethods);
  }

  /** True once the app removed it. */
  get removed(): boolean {
    return this.#removed;
  }
}
Object.freeze(SessionAppBody.prototype);
