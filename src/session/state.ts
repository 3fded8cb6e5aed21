/**
 * `SimState`: everything that changes while a session runs. One session owns one state; nothing is global.
 */
import { Hasher64 } from '../../kernels/hash64.js';
import { rotateVec } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { Frame } from '../frame/frame.js';
import { FrameHasher } from '../frame/hash.js';
import { frameLayoutFor } from '../frame/layout.js';
import type { SimModel } from '../model/types.js';
import { PhysicsWorld, type InitialBodyState, initPhysics } from '../physics/world.js';
import { RandomStreams } from '../random.js';
import { writeUserChannels } from '../user/channels.js';
import { createHandPartPoses, handPartPoses, type HandPartPoses } from '../user/hand-parts.js';
import { SimUser } from '../user/user.js';
import { TrackingNoise } from '../user/perturbation.js';
import { buildSceneGeometry, type SceneGeometryIndex } from '../sensing/scene-geometry.js';
import type { Handedness } from '../hand/side.js';
import { Sensing } from '../sensing/sensing.js';

/** The mutable state of one session. */
export class SimState {
  /** Current tick; frame `tick` is the latest one produced. */
  tick = 0;
  readonly random: RandomStreams;
  readonly physics: PhysicsWorld;
  /** The current frame, rewritten in place every tick. */
  readonly frame: Frame;
  /** 64-bit hash (hi, lo) of the current frame. */
  readonly frameHash = new Uint32Array(2);
  /** Chained hash of every frame so far. */
  readonly sessionHash = new Uint32Array(2);
  private readonly frameHasher: FrameHasher;
  private readonly chainHasher = new Hasher64();
  private readonly chain = new Uint32Array(4);

  /** The simulated user (head, hands, controllers). */
  readonly user: SimUser;
  /** The scene's primitives (surfaces, bodies, hands), shared by contact and sensing. */
  readonly scene: SceneGeometryIndex;
  /** Poses of the hands' kinematic bodies and parts this tick. */
  readonly handParts: HandPartPoses;
  private readonly trackingNoise: TrackingNoise | null;
  /** Depth camera, planes, anchors, hit tests and the runtime environment. */
  readonly sensing: Sensing;

  constructor(
    rapier: Awaited<ReturnType<typeof initPhysics>>,
    readonly model: SimModel,
    seed: number,
    dominantHand: Handedness,
    perturbationSeed?: number,
  ) {
    this.random = new RandomStreams(seed, perturbationSeed);
    this.frame = new Frame(frameLayoutFor(model));
    this.frameHasher = new FrameHasher(this.frame.layout, true);
    // The user is placed first (tick 0), so the hands' kinematic bodies are created where the hands are.
    this.scene = buildSceneGeometry(model);
    this.user = new SimUser(model, dominantHand, this.random, this.scene.geometry);
    this.user.update(0, model.timing.dt, this.frame);
    this.handParts = createHandPartPoses(model);
    handPartPoses(model, this.user, this.handParts);
    this.physics = new PhysicsWorld(rapier, model, initialConditions(model, this.random), this.handParts);
    const sigma = model.user.perturbation?.trackingNoise ?? 0;
    this.trackingNoise = sigma > 0 ? new TrackingNoise(this.random, sigma) : null;
    this.sensing = new Sensing(model, this.scene, this.random, () => this.physics);
  }

  /** Runs the sensing stage for the current tick (after physics has read the bodies' poses). */
  sense(): void {
    this.sensing.sense(this.tick, this.frame, this.writeHeadPose, this.user.hands ? this.handParts : null);
  }

  private readonly writeHeadPose = (out: Float64Array) => this.user.head.writePose(out);

  /** Runs the user stage for time `t`: moves the user and the hands' kinematic bodies. */
  updateUser(t: number): void {
    this.user.update(t, this.model.timing.dt, this.frame);
    const hands = this.user.hands;
    if (hands && (hands.left.changed || hands.right.changed)) {
      handPartPoses(this.model, this.user, this.handParts);
      this.physics.hands.move(this.handParts);
    }
  }

  /** Writes the user's channels into the frame (`all`: even those that did not change). */
  writeUserChannels(all = false): void {
    writeUserChannels(this.user, this.frame, this.tick, this.trackingNoise, all);
  }

  /** Hashes the current frame and chains it into the session hash. */
  hashFrame(): void {
    const frame = this.frame;
    this.frameHasher.digest(frame.words, frame.events, frame.eventWords, this.frameHash, frame.hasDepth ? frame.depthStamp : null);
    const h = this.chainHasher;
    this.chain[0] = this.sessionHash[0];
    this.chain[1] = this.sessionHash[1];
    this.chain[2] = this.frameHash[0];
    this.chain[3] = this.frameHash[1];
    h.reset();
    h.update(this.chain, 4);
    h.digest(this.sessionHash);
  }
}

/**
 * The bodies' initial poses and velocities: the model's, plus the task's seeded perturbations drawn in
 * order from the `initial-conditions` stream. Offsets are given in the task frame.
 */
export function initialConditions(model: SimModel, random: RandomStreams): InitialBodyState[] {
  const states: InitialBodyState[] = model.bodies.map((b) => ({
    pose: { position: [...b.pose.position], rotation: [...b.pose.rotation] },
    linearVelocity: [...b.linearVelocity],
    angularVelocity: [...b.angularVelocity],
  }));
  const stream = random.get('initial-conditions');
  for (const r of model.randomize) {
    const index = model.bodies.findIndex((b) => b.origin === 'task' && b.id === r.body);
    const local: Vec3 = [stream.uniform(...r.uniform[0]), stream.uniform(...r.uniform[1]), stream.uniform(...r.uniform[2])];
    const offset = rotateVec(model.taskFrame.rotation, local);
    const target =
      r.property === 'position' ? states[index].pose.position : r.property === 'linearVelocity' ? states[index].linearVelocity : states[index].angularVelocity;
    for (let i = 0; i < 3; i++) target[i] += offset[i];
  }
  return states;
}
