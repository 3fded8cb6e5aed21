/**
 * A session: an immutable model, a mutable state, a seed, and the fixed pipeline that steps them.
 *
 * The pipeline of one tick, in this order, every tick, with a fixed dt:
 *   actors → environment → user → physics → sensing → user channels → app host → frame (hash, validators,
 *   recorder)
 */
import { hashToHex } from '../../kernels/hash64.js';
import { XrsimInputError } from '../errors.js';
import { ownEntry } from '../json/names.js';
import type { Vec3 } from '../geometry/types.js';
import type { FrameView } from '../frame/frame.js';
import { bodyIndexOf } from '../model/references.js';
import type { SimModel } from '../model/types.js';
import { initPhysics } from '../physics/world.js';
import { loadScene } from '../scene/load.js';
import type { StreamWriter } from '../stream/writer.js';
import { loadTask } from '../task/load.js';
import { createTaskValidators } from '../validate/registry.js';
import { FrameState } from '../validate/frame-state.js';
import { DesignObserver } from '../design/observer.js';
import type { Validator } from '../validate/types.js';
import { verdict, type SessionResult } from './result.js';
import { normalizeSpec, type Handedness, type RecordOptions, type SessionSpec } from './spec.js';
import { SimState } from './state.js';
import { modelFor } from './model-cache.js';
import type { Sensing } from '../sensing/sensing.js';
import type { Environment } from '../sensing/environment.js';
import { AppHost } from '../app/host.js';
import { importApp } from '../app/module.js';
import { sessionModuleImporter } from '../app/fresh-modules.js';
import type { AppModule } from '../app/types.js';
import type { ActorContext } from '../actors/action.js';
import { sessionActorContext } from './actor-context.js';
import { DEFAULT_APP, type ModuleRef } from '../task/programs.js';
import { isBrowserAppEntry } from '../task/types.js';
import { checkVisualViews } from '../task/requirements.js';
import { ActorRunner } from '../actors/runner.js';
import { importActors, type ActorScript } from '../actors/api.js';
import { userControls, type UserControls } from '../user/user.js';
import { loadHandModel } from '../hand/hand-model.js';
import { validateSensingOptions, validateUserOptions } from '../task/load.js';
import type { BrowserHostApp, LayerCapture, PageEnd } from '../browser/host-app.js';
import { browserHost } from './browser-host.js';
import { BrowserStepper } from './browser-stepper.js';
import { openRecorder } from './recorder.js';
import { DEFAULT_BROWSER_BATCH, DEFAULT_BROWSER_IN_FLIGHT, type CreateOptions, type SessionOptions } from './options.js';
import type { AgentDecider } from '../actors/agent-protocol.js';
import { sessionAgent } from './agents.js';
import type { BridgeStats } from '../browser/browser-app.js';

export { DEFAULT_BROWSER_BATCH, DEFAULT_BROWSER_IN_FLIGHT, type CreateOptions, type SessionOptions } from './options.js';

/** Hooks for {@link Session.run}. */
export interface RunHooks {
  /** Called before each step, with the tick about to be simulated. Use it to perturb the world. A browser app's ticks are then not batched. */
  beforeStep?(session: Session, nextTick: number): void;
  /**
   * Called with every frame, frame 0 included. The frame is reused: copy what you keep. In a session that
   * batches a browser app's ticks, the session itself may be a few ticks ahead of `frame.tick` here.
   */
  onFrame?(frame: FrameView, session: Session): void;
}

/** One running simulation. Create it with {@link createSession} or {@link Session.create}. */
export class Session {
  readonly state: SimState;
  /** Scripting the simulated user: hands, head and controllers, on the simulation clock. */
  readonly user: UserControls;
  /** The headset's senses: depth information, detected planes, hit tests, anchors. */
  readonly sensing: Sensing;
  /** Adding, moving and removing surfaces while the session runs. */
  readonly environment: Environment;
  /** The app under test, when the session runs one. */
  readonly app: AppHost | null;
  /** The task's actor script, when it has one. */
  readonly actors: ActorRunner | null;
  private readonly actorContext: ActorContext;
  private readonly validators: Validator;
  /** Rates the app's design from the committed frames (sessions with an app). */
  private readonly design: DesignObserver | null;
  private readonly recorder: StreamWriter | undefined;
  private onFrame: RunHooks['onFrame'];
  /** The page, when the app is a browser app (closed when the session ends). */
  private readonly browser: BrowserHostApp | null;
  private finished = false;
  private disposed = false;
  /** Steps a browser app's ticks, batched and pipelined where they cannot depend on its answers. */
  private readonly browserStepper: BrowserStepper | null;
  /** True while the session steps a tick ahead of the page's answers to earlier ones. */
  private speculating = false;
  /** What an actor read from the app while speculating (a quiet declaration that was wrong), or null. */
  private feedbackRead: string | null = null;

  private constructor(
    rapier: Awaited<ReturnType<typeof initPhysics>>,
    readonly model: SimModel,
    readonly seed: number,
    readonly dominantHand: Handedness,
    private readonly recordOptions: RecordOptions | undefined,
    programs: { app: AppModule | null; actors: ActorScript | null; browser: BrowserHostApp | null },
    readonly perturbationSeed?: number,
    browser: { batch?: number; inFlight?: number } = {},
    agent: AgentDecider | null = null,
  ) {
    this.browser = programs.browser;
    this.state = new SimState(rapier, model, seed, dominantHand, perturbationSeed);
    this.user = userControls(this.state.user);
    this.sensing = this.state.sensing;
    this.environment = this.state.sensing.environment;
    const state = this.state;
    this.app = programs.app ? new AppHost(programs.app, model, () => state.physics, state.sensing, state.random.get('app'), { blocking: programs.browser !== null }) : null;
    this.actors = programs.actors ? new ActorRunner(programs.actors, dominantHand) : null;
    // Reading the app's state while the session steps ahead of a page's answers would read stale state.
    this.actorContext = sessionActorContext(model, state, this.user, this.app, (what) => {
      if (this.speculating) this.feedbackRead ??= what;
    }, agent);
    // The validators decode each frame's tags and events; the design observer reads the same decoding.
    const frameState = new FrameState();
    this.validators = createTaskValidators(model, dominantHand, { state: frameState, decode: this.app !== null });
    this.design = this.app ? new DesignObserver(model, frameState) : null;
    this.recorder = recordOptions ? openRecorder(model, recordOptions, seed, dominantHand, perturbationSeed) : undefined;
    this.browserStepper = programs.browser ? this.stepperFor(programs.browser, browser.batch ?? DEFAULT_BROWSER_BATCH, browser.inFlight ?? DEFAULT_BROWSER_IN_FLIGHT) : null;
    // Frame 0 is the initial state, before any step.
    this.state.physics.readPoses(this.state.frame.bodyPoses, true);
    this.state.writeUserChannels(true);
    this.state.sense();
    this.state.frame.setTime(0, 0);
    this.app?.setup(this.state.frame);
    this.app?.run(this.state.frame, 0, 0);
    // `create` commits frame 0, after letting an async setup or frame settle.
  }

  /** Starts a session of an existing model (models are immutable and can be shared by many sessions). */
  static async create(model: SimModel, options: SessionOptions): Promise<Session> {
    const rapier = await initPhysics();
    const programs = model.sources.programs;
    // One module graph per session: its app and actor script get fresh instances where the process allows.
    const importModule = sessionModuleImporter();
    const browserRef = programs?.app && 'host' in programs.app ? programs.app : null;
    let session: Session | undefined;
    const browser = browserRef ? browserHost(browserRef, () => session?.app, options.layerCapture, options.page) : null;
    const app = browser ? browser.module() : programs?.app ? await importApp(programs.app as ModuleRef, importModule) : null;
    const actors = programs?.actors ? await importActors(programs.actors, importModule) : null;
    session = new Session(rapier, model, options.seed, options.dominantHand ?? 'right', options.record, { app, actors, browser }, options.perturbationSeed, { batch: options.browserBatch, inFlight: options.browserInFlight }, options.agent ?? null);
    try {
      if (browser) await session.browserStepper!.answerCurrent(); // commits frame 0 with the page's output
      else if (session.app?.awaiting) await session.app.settle(session.state.frame);
    } catch (err) {
      await session.close();
      throw err;
    }
    if (!browser) session.commitFrame();
    return session;
  }

  /** A browser app's bridge: round trips, ticks sent and their time (null without a browser app). */
  get browserStats(): BridgeStats | null {
    return this.browser?.stats ?? null;
  }

  /** A browser app's page: its status, how its session started, the Playwright page (null without one). */
  get browserPage(): PageEnd | null {
    return this.browser?.page ?? null;
  }

  /** Current tick. */
  get tick(): number {
    return this.state.tick;
  }

  /** The current frame (reused every tick). */
  get frame(): FrameView {
    return this.state.frame;
  }

  /** True once the model's duration has been simulated. */
  get done(): boolean {
    return this.state.tick >= this.model.timing.durationTicks;
  }

  /** The chained hash of every frame so far, 16 hex digits. */
  get hash(): string {
    return hashToHex(this.state.sessionHash);
  }

  /**
   * Simulates one tick and returns its frame. An async app's promises are not awaited here: their
   * rejections are recorded in the first tick after they settle. {@link run} lets them settle within
   * their own tick.
   */
  step(): FrameView {
    if (this.browser) throw new Error('a session with a browser app steps with run() or stepTicks(): its page answers asynchronously');
    this.advance();
    this.commitFrame();
    return this.state.frame;
  }

  /** Runs one tick's pipeline up to, not including, the frame commit. */
  private advance(): void {
    if (this.finished) throw new Error('session already finished');
    const state = this.state;
    const frame = state.frame;
    state.tick++;
    const t = state.tick * this.model.timing.dt;
    frame.eventWords = 0;
    if (this.actors) {
      this.actorContext.t = t;
      this.actorContext.tick = state.tick;
      this.actors.tick(this.actorContext, frame);
    }
    // Environment commands given since the last tick (by actors or by code) apply now.
    state.sensing.environment.apply(frame);
    state.updateUser(t);
    state.physics.step(frame);
    state.physics.readPoses(frame.bodyPoses);
    state.sense();
    state.writeUserChannels();
    frame.setTime(state.tick, t);
    this.app?.run(frame, state.tick, t);
  }

  /** Runs to the end of the model's duration and returns the result. */
  async run(hooks: RunHooks = {}): Promise<SessionResult> {
    this.onFrame = hooks.onFrame;
    if (this.tick === 0) hooks.onFrame?.(this.state.frame, this);
    try {
      await this.stepTo(this.model.timing.durationTicks, hooks.beforeStep);
    } finally {
      this.onFrame = undefined;
    }
    const result = this.finish();
    await this.browser?.close();
    return result;
  }

  /**
   * Simulates `ticks` ticks (fewer at the end), awaiting the app: how a session whose app is a page is
   * stepped a part at a time (`XrPage`); a failure closes the session, as in {@link run}.
   */
  async stepTicks(ticks: number): Promise<FrameView> {
    await this.stepTo(Math.min(this.tick + ticks, this.model.timing.durationTicks));
    return this.state.frame;
  }

  /** Steps and commits every tick up to `last`, a browser app's batched and pipelined where they cannot depend on its answers. */
  private async stepTo(last: number, beforeStep?: RunHooks['beforeStep']): Promise<void> {
    try {
      if (this.browserStepper) {
        // A hook may look at the session between ticks: it must find it where the frames are.
        await this.browserStepper.stepTo(last, beforeStep !== undefined, beforeStep && ((next) => beforeStep(this, next)));
        return;
      }
      while (this.tick < last) {
        beforeStep?.(this, this.tick + 1);
        this.advance();
        if (this.app?.awaiting) await this.app.settle(this.state.frame);
        this.commitFrame();
      }
    } catch (err) {
      this.recorder?.abort();
      await this.close();
      throw err;
    }
  }

  /** Frees the session and closes its page, if it runs a browser app (use it to abandon a session). */
  async close(): Promise<void> {
    this.dispose();
    await this.browser?.close();
  }

  /** Ends the session: closes the stream and scores the milestones. */
  finish(): SessionResult {
    if (this.finished) throw new Error('session already finished');
    this.finished = true;
    this.recorder?.close(this.state.sessionHash);
    const milestones = this.validators.finish();
    const { status, score, error } = verdict(milestones);
    const result: SessionResult = {
      task: this.model.taskId,
      app: this.model.sources.programs?.app?.name ?? null,
      ...(this.model.sources.programs?.app ? { appSha256: this.model.sources.programs.app.sha256 } : {}),
      scene: this.model.sceneId,
      seed: this.seed,
      hand: this.dominantHand,
      ticks: this.tick,
      status,
      score,
      hash: this.hash,
      milestones,
      stream: this.recordOptions?.path ?? null,
      modelHash: this.model.hash,
      appErrors: this.app?.errors ?? 0,
      firstAppError: this.app?.firstError ?? null,
      ...(this.actors?.failures.length ? { actorFailures: this.actors.failures.length, firstActorFailure: this.actors.failures[0] } : {}),
      ...(this.design ? { design: this.design.finish() } : {}),
      ...(error ? { error } : {}),
    };
    this.dispose();
    return result;
  }

  /**
   * Applies an impulse (N·s, world frame) to a dynamic body: `task:<body id>` or `scene:<prop id>`.
   * Deterministic, so it is also how tests perturb a run on purpose. Throws `XrsimInputError` for an
   * unknown body.
   */
  applyImpulse(body: string, impulse: Vec3): void {
    this.state.physics.bodies.applyImpulse(bodyIndexOf(this.model, body, { bare: 'task' }), impulse);
  }

  /** Frees the physics world. Called by `finish`; call it yourself if you abandon a session. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.recorder?.abort();
    this.state.physics.free();
  }

  /** The browser stepper's view of this session: stepping ahead of the page is checked, committing applies its output. */
  private stepperFor(browser: BrowserHostApp, batch: number, inFlight: number): BrowserStepper {
    const state = this.state;
    return new BrowserStepper(
      {
        frame: state.frame,
        tick: () => state.tick,
        advance: (ahead) => (ahead ? this.advanceAhead() : this.advance()),
        quietNextTick: () => this.actors?.quietNextTick(this.actorContext) ?? true,
        settle: () => (this.app?.awaiting ? this.app.settle(state.frame) : undefined),
        commit: (output) => {
          this.app!.applyBridged(state.frame, () => browser.apply(output));
          this.commitFrame();
        },
      },
      browser,
      batch,
      inFlight,
    );
  }

  /**
   * Steps a tick while earlier ones still wait for the page's answers. The stepper does so only when the
   * actor script declared the tick quiet (`ActorRunner.quietNextTick`); an actor that reads the app's state
   * anyway would read stale state, so that is refused.
   */
  private advanceAhead(): void {
    this.speculating = true;
    try {
      this.advance();
    } finally {
      this.speculating = false;
    }
    if (this.feedbackRead) {
      throw new Error(`an actor step declared quiet read the app's ${this.feedbackRead} at tick ${this.tick}, while the session stepped ahead of a browser app's answers (please report this; browserBatch: 1 and browserInFlight: 1 avoid it)`);
    }
  }

  private commitFrame(): void {
    const state = this.state;
    state.hashFrame();
    this.validators.observe(state.frame);
    this.design?.observe(state.frame);
    this.recorder?.append(state.frame, state.frameHash);
    this.onFrame?.(state.frame, this);
  }
}

/**
 * Loads the task and scene a spec names, builds the model and starts a session.
 * Throws {@link XrsimInputError} for bad input.
 */
export async function createSession(input: SessionSpec, options: CreateOptions = {}): Promise<Session> {
  const spec = normalizeSpec(input);
  const task = loadTask(spec.task);
  const scene = loadScene(spec.scene ?? task.spec.scene);
  const handModel = spec.handModel === undefined ? undefined : loadHandModel(spec.handModel).spec;
  if (spec.user !== undefined) validateUserOptions(spec.user);
  if (spec.sensing !== undefined) validateSensingOptions(spec.sensing);
  // A browser app may need more sensing than the task's (a page knows the room only through its senses).
  const entry = ownEntry(task.spec.apps, spec.app ?? DEFAULT_APP);
  const sensing = entry && isBrowserAppEntry(entry) && entry.sensing ? { ...entry.sensing, ...spec.sensing } : spec.sensing;
  const model = modelFor(scene, task, { substeps: spec.substeps, duration: spec.duration, handModel, user: spec.user, sensing, app: spec.app, start: spec.start });
  // Whether a visual validator's view "layer" can be shown is known only with the session's app.
  checkVisualViews(task.spec, task.file, (model.sources.programs?.app as { host?: string } | undefined)?.host === 'browser');
  const agent = sessionAgent(spec, task.spec.agent, model, options.agentViews);
  return Session.create(model, { seed: spec.seed, perturbationSeed: spec.perturbationSeed, dominantHand: spec.dominantHand, record: spec.record, browserBatch: spec.browserBatch, browserInFlight: spec.browserInFlight, layerCapture: options.layerCapture, page: options.page, agent });
}
