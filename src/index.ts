/**
 * xrsim: a deterministic, headless XR simulation kernel.
 *
 * The usual entry points:
 * - {@link runSession} runs a {@link SessionSpec} to a {@link SessionResult} and never throws for the
 *   session's own problems (they become `errored` results);
 * - {@link createSession} gives a {@link Session} to step yourself, and throws on bad input;
 * - {@link buildModel} with {@link loadScene} and {@link loadTask} gives an immutable {@link SimModel}
 *   that many sessions can share through {@link Session.create};
 * - {@link StreamReader}, {@link inspectStream} and {@link verifyStream} read recorded `.xrs` streams;
 *   {@link replayStream} plays one into an app (in process or a browser page) and compares its state.
 *
 * @packageDocumentation
 */

// Sessions
/** Runs a spec to a result; bad input and crashes become `errored` results. */
export { runSession } from './session/run.js';
/** A running simulation: `step()`, `run()`, `finish()`; and the function that starts one from a spec. */
export { Session, createSession, type RunHooks, type SessionOptions } from './session/session.js';
/** What to run: task, scene, seed, dominant hand, recording. */
export { normalizeSpec, isSeed, type SessionSpec, type RecordOptions, type JudgeOptions } from './session/spec.js';
/**
 * Runs a spec to a result with its `visual` milestones judged: views rendered at their moments, handed to
 * the judge command (`spec.judge.command`, else the validator's `judge`); the hash is that of `runSession`.
 */
export { runJudgedSession, DEFAULT_JUDGE_TIMEOUT } from './judge/session.js';
/** Running a judge command on a request, and reading its verdict. */
export { runJudge, parseVerdict, type JudgeRequest, type JudgeOutcome } from './judge/command.js';
/** Sides: the dominant hand, and how scripts and references name a hand (`dominant`, `other`, `left`, `right`). */
export { sideOf, otherSide, SIDE_REFS, type Handedness, type SideRef } from './hand/side.js';
/** What a session produces. */
export { verdict, type SessionResult, type SessionStatus, type SessionError } from './session/result.js';
/** The mutable state of a session and how initial conditions are drawn from the seed. */
export { SimState, initialConditions } from './session/state.js';

// Model
/** Builds the immutable, validated, content-hashed model of a task in a scene. */
export { buildModel, DEFAULT_DT, DEFAULT_GRAVITY, DEFAULT_SOLVER_ITERATIONS, MAX_SESSION_TICKS } from './model/build.js';
export { MAX_INPUT_MAGNITUDE } from './json/load.js';
/** Model types. */
export type { SimModel, ModelOptions, BodyModel, StaticModel, SensorModel, ColliderModel, TimingModel, ObjectOrigin } from './model/types.js';
/** Canonical JSON and the content hash used for models. */
export { canonicalJson, contentHash } from './model/canonical.js';

// Scenes and tasks
/** Loading and validating scenes: by id from the library, by path, or inline. */
export { loadScene, validateScene, listSceneIds, type LoadedScene } from './scene/load.js';
/** The scene file format. */
export type { SceneSpec, SurfaceSpec, PropSpec, PropKind, AnchorSpec } from './scene/types.js';
/** Loading and validating tasks: by id from the suite, by path, or inline. */
export { loadTask, validateTask, listTaskIds, type LoadedTask } from './task/load.js';
/** The failure modes adversarial apps stand for (GenXR-Bench's failure analysis). */
export { FAILURE_CATEGORIES, FAILURE_CATEGORY_IDS, type FailureCategory } from './task/failure-categories.js';
/** The task file format. */
export type { TaskSpec, FixtureSpec, BodySpec, SensorSpec, RandomizeSpec, MilestoneSpec, AxesSpec, ValidatorSpecBase, Moment, Window, PassRule } from './task/types.js';
/** References: how tasks, scripts and code name things in a session (`task:ball`, `scene:table`, `tag:menu`, `hand:dominant:index-tip`, `head`). */
export { parseReference, formatReference, REFERENCE_KINDS, type Reference, type ReferenceKind, type ReferenceOptions } from './task/references.js';
/** Resolving references against a model (throwing the same `XrsimInputError` for an unknown object everywhere). */
export { bodyIndexOf, staticIndexOf, sensorIndexOf, objectReference } from './model/references.js';
/** Geometry vocabulary shared by scenes and tasks. */
export { SEMANTIC_LABELS, type Vec3, type Quat, type ShapeSpec, type PartSpec, type MaterialSpec, type SemanticLabel } from './geometry/types.js';

// Frames
/** A frame as validators and hooks see it. */
export type { FrameView } from './frame/frame.js';
/** The frame layout (channel table) of a model. */
export { frameLayoutFor, POSE_FLOATS, type FrameLayout, type ChannelDescriptor, type DepthCameraDescriptor } from './frame/layout.js';
/** Event records in the `events` channel. */
export { EventType, EVENT_NAMES, NO_PLANE, decodeEvents, type DecodedEvent } from './frame/events.js';
/** The audio events' payloads: a voice started (where, how loud), changed, stopped. */
export type { AudioStartRecord, AudioUpdateRecord, AudioStopRecord, AudioPosition } from './frame/audio-events.js';

// Validators
/** Creates the validators a task names; useful to score frames from your own loop or a stream. */
export { createValidator, createTaskValidators, FORMULAS, formulaNamed, type ValidatorSpec } from './validate/registry.js';
/** Declaring a formula: its options' schema fragments (from which its spec type derives) and its implementation. */
export { defineFormula, schema as formulaSchema, type Formula, type FormulaSpec, type SpecOf, type OptionSchema } from './validate/formula.js';
/** The context formulas are created with. */
export type { ValidatorContext } from './validate/xr-context.js';
/** The options of each formula. */
export type { CheckpointsValidatorSpec } from './validate/checkpoints.js';
export type { SettleValidatorSpec } from './validate/settle.js';
export type { DriftValidatorSpec } from './validate/drift.js';
export type { FinalDistanceValidatorSpec } from './validate/final-distance.js';
export type { ContactValidatorSpec } from './validate/contact.js';
export type { RegionValidatorSpec } from './validate/region.js';
export type { DisplacementValidatorSpec, RmsValidatorSpec, FollowValidatorSpec, DistanceAtValidatorSpec, SpeedValidatorSpec, PresenceValidatorSpec } from './validate/xr-motion.js';
export type { ComfortValidatorSpec, VisibleValidatorSpec, OverlapValidatorSpec } from './validate/xr-perception.js';
export type { PressesValidatorSpec, EventCountValidatorSpec, EventOrderValidatorSpec } from './validate/xr-events.js';
export type { CoverageValidatorSpec, ReachabilityValidatorSpec } from './validate/xr-space.js';
export type { PenetrationValidatorSpec } from './validate/xr-penetration.js';
export type { SoundResponseValidatorSpec, VoicesValidatorSpec, SoundFollowsValidatorSpec } from './validate/xr-audio.js';
/** Milestones and the validator interface. */
export type { Milestone, Validator, JudgeVerdict, VisualJudgement } from './validate/types.js';

// Design score
/**
 * The ten design heuristics a session's app is rated on (1–5, `result.design`), their bands, and the banding
 * of a metric into a rating. `DesignObserver` rates the frames of your own loop (it reads a `FrameState`).
 */
export { DESIGN_HEURISTIC_IDS, type DesignHeuristicId, type DesignRating, type DesignReport, type Likert } from './design/types.js';
export { HEURISTICS, rate as rateDesignMetric, type Bands as DesignBands, type HeuristicDefinition } from './design/heuristics.js';
export { DesignObserver } from './design/observer.js';
export { FrameState } from './validate/frame-state.js';

// Sensing
/** The session's senses: depth information, detected planes, hit tests and anchors (`session.sensing`). */
export { Sensing, type HitTestOptions } from './sensing/sensing.js';
/** Sensing options as written in tasks and specs, and as resolved into the model. */
export {
  resolveSensing,
  MAX_DEPTH_RESOLUTION,
  type SensingOptions,
  type SensingModel,
  type DepthSensorOptions,
  type DepthSensorModel,
  type PlaneDetectionOptions,
  type PlaneDetectionModel,
} from './task/sensing-options.js';
/** Depth noise presets and their documented parameters. */
export { DEPTH_NOISE, DEPTH_NOISE_PRESETS, noiseSigma, type DepthNoiseParams, type DepthNoisePreset } from './task/noise-presets.js';
/** WebXR's XRCPUDepthInformation, built from a depth reading. */
export { CpuDepthInformation, rigidTransform, IDENTITY_TRANSFORM, type RigidTransformLike, type DepthDataFormat, type DepthPixelSource } from './sensing/depth-information.js';
/** The depth camera of a session. */
export { DepthSensor } from './sensing/depth-sensor.js';
/** Plane detection and detected planes. */
export { PlaneDetector, PlaneChange, type DetectedPlane, type PlaneOrientation } from './sensing/planes.js';
/** Which face of a labelled surface becomes its plane. */
export { choosePlane, type PlaneCandidate } from './sensing/plane-candidates.js';
/** Hit tests against detected planes and depth. */
export { hitTest, type HitTestResult, type HitTestEntity } from './sensing/hit-test.js';
/** Anchors on detected planes. */
export { Anchors, type Anchor } from './sensing/anchors.js';
/** Adding, moving and removing surfaces while a session runs (`session.environment`). */
export { Environment } from './sensing/environment.js';
/** The scene geometry store shared by contact and sensing. */
export { buildSceneGeometry, type SceneGeometryIndex } from './sensing/scene-geometry.js';
/** Decoding sensing events (planes, hit tests, anchors, surfaces) from event records. */
export { decodeSensingEvent, type SensingEvent } from './sensing/events.js';

// Point-of-view rendering
/** A recorded stream's scene at each frame, cameras to view it from, and the CPU renderer. */
export { RecordedScene, renderOnCpu, CpuViewRenderer, viewCamera, VIEW_KINDS, type ViewCamera, type ViewCameraOptions } from './render/view.js';
/** The optional headless-gl renderer (needs the `gl` package and an X display; one thread per process). */
export { GlRenderer, GlUnavailableError, GL_INSTALL_HELP, type RenderedView } from './render/gl-renderer.js';
/** Triangles of a scene geometry store, for GPU renderers. */
export { sceneMesh, type Mesh } from './render/mesh.js';
/** PNG files of views (8-bit RGB) and depth (16-bit millimetres). */
export { encodePng, decodePng, type PngImage } from './render/png.js';
/** Flat colours per semantic label, and the colour of each primitive of a recorded scene. */
export { LABEL_COLOURS, objectColour, primitiveColours } from './render/colours.js';
export type { PrimitiveLook } from './sensing/recorded-scene.js';

// Apps and actors
/** What an app under test sees and uses: the WebXR-shaped frame, the context, app bodies. */
export type { AppModule, AppContext, AppBody, AppBodyOptions, TagExtent, HitTestSource, XrFrameLike, XrInputSource, XrInputEvent, XrPose, XrJointPose, XrTransform, XrPoint, XrViewerPose } from './app/types.js';
/** `ctx.audio`: the sounds an app plays (voices placed in the world, on the simulation clock), and its limits. */
export type { AppAudio, AudioVoice, AudioPlayOptions } from './app/types.js';
export { MAX_VOICES, MAX_SOUND_NAME_CHARS } from './app/audio.js';
/** Vector helpers for app authors. */
export * as xr from './app/xr-math.js';
/** The in-process app host and semantic tags. */
export { AppHost, type AppErrorSummary } from './app/host.js';
export { sanitizeStack } from './app/stack.js';
export { TagRegistry, MAX_TAGS, MAX_TAG_NAME_CHARS } from './app/tags.js';
/** Resolving and loading a task's actor script and apps. */
export { resolvePrograms, DEFAULT_APP, type ProgramSources, type ModuleRef } from './task/programs.js';
export { importApp } from './app/module.js';
/** Actor scripts: the API a script receives, targets, actions and the runner. */
export { actorApi, importActors, type ActorApi, type ActorScript } from './actors/api.js';
export { at, world, surface, tag, offset, type Target, type Resolved } from './actors/targets.js';
export { parallel, sequence, instant, timed, type Action, type ActionStatus, type ActorContext } from './actors/action.js';
export { ActorRunner } from './actors/runner.js';
export type { ActorView } from './actors/time-verbs.js';
/**
 * Agent actors (`a.agent`): the request an agent gets and the action it answers, the decider interface a
 * harness can implement, the reference agent, agents from a recording, and the errors of a session that
 * cannot have its agent or got an answer that is not an action (docs/TASKS.md, "Agent actors").
 */
export {
  AGENT_VERBS,
  AgentUnavailableError,
  AgentAnswerError,
  AgentDivergenceError,
  parseAgentAnswer,
  type AgentDecider,
  type AgentRequest,
  type AgentAction,
  type AgentTarget,
  type AgentTag,
  type AgentHistoryEntry,
} from './actors/agent-protocol.js';
export type { AgentOptions } from './actors/agent-verb.js';
export { referenceAgent, referenceDecision } from './actors/reference-agent.js';
export { resolveAgent, recordedAgent, recordedDecisions, checkedAgent, type RecordedDecision } from './session/agents.js';
export { commandAgent, DEFAULT_AGENT_TIMEOUT, type AgentViews } from './session/agent-command.js';

// Streams
/** Reads `.xrs` streams: random access by tick, columnar pose tracks, chunk checks. */
export { StreamReader, type OpenOptions, type ChunkCheck, type IndexSource } from './stream/reader.js';
/** Writes `.xrs` streams (sessions do this for you when `record` is set). */
export { StreamWriter, type StreamSummary } from './stream/writer.js';
/** Rebuilding a stream's model from the sources its header embeds (with or without its programs). */
export { modelFromHeader, replayModelFromHeader, buildStreamHeader } from './stream/header.js';
/** Header, channels, sizes and chunk checks of a stream. */
export { inspectStream, type InspectReport } from './stream/inspect.js';
/** Re-runs a stream's session and names the first divergent tick and channel. */
export { verifyStream, type VerifyReport, type VerifyOptions, type Divergence } from './stream/verify.js';
export { replayStream, resolveReplayApp, type ReplayOptions, type ReplayReport, type ReplayDifference, type ReplayTarget, type AppHostKind } from './replay/replay.js';
/** The container layout and its header. */
export { DEFAULT_CHUNK_FRAMES, MIN_CHUNK_FRAMES, type StreamHeader, type StreamEncoding } from './stream/format.js';

// The simulated user
/** The scripting surface of a session's user (`session.user`) and the user stage's state. */
export { SimUser, userControls, USER_PART, type UserControls, type HandControls } from './user/user.js';
/** User options (task `user` section, spec `user`) and the resolved user of a model. */
export { resolveUser, type UserOptions, type UserModel, type PerturbationOptions } from './task/user-options.js';
/** Hand models: loading, validating, compiling; joint limits. */
export { loadHandModel, listHandModelIds, validateHandModel, clampToLimits, type HandModel, type HandModelSpec, type JointSpec } from './hand/hand-model.js';
/** The OpenXR 26-joint set and its WebXR 25-joint view. */
export { OPENXR_JOINTS, WEBXR_JOINTS, webxrName, webxrIndex, type JointName } from './hand/joints.js';
/** The pose library and the solved grab. */
export { resolvePose, listPoseNames, poseLibrary, grabPose, anglesOf, type HandPose, type PoseSpec } from './hand/poses.js';
/** Detector features (pinch distance, fingertip-to-palm, straightness, thumb direction) and heuristics. */
export { handFeatures, classifyGesture, GESTURE_CRITERIA, type HandFeatures, type Gesture } from './user/gestures.js';
/** A hand posed on its own (as `xrsim pose` does), and the default wrist pose. */
export { poseHand, defaultWristPose, type PosedHand } from './user/posed-hand.js';
/** One hand's state, its placement targets and contact probes. */
export { Hand, CONTACT_PROBES, type HandTarget, type HandPoint } from './user/hand.js';
/** The head: motion, gaze pursuit, walking, eye positions. */
export { Head, WALKING_SPEED } from './user/head.js';
/** Controllers with the xr-standard mapping. */
export { Controller, XR_STANDARD_BUTTONS, type ButtonName } from './user/controller.js';
/** Easing curves used by every timed transition. */
export { ease, type Easing } from './user/motion.js';
/** Frame channel sizes of the user's channels. */
export { HAND_JOINT_FLOATS, HAND_CHANNEL_FLOATS, CONTROLLER_CHANNEL_FLOATS, CONTACT_PROBE_FLOATS, CONTACT_PROBES_PER_HAND } from './frame/layout.js';
/** The two-level frame hash, for tools that rewrite streams. */
export { FrameHasher } from './frame/hash.js';

// Sweeps
/** Runs a suite over seeds, hands and scenes on a worker pool; results are appended to `results.jsonl`. */
export { runSweep, type RunSweepOptions, type SweepProgress } from './sweep/run.js';
/** Which sessions of a sweep get a video of their kept stream (`--videos`). */
export { SWEEP_VIDEO, type KeepVideos } from './sweep/videos.js';
/** Running summaries of a sweep (per task, per milestone), in memory that does not grow with its sessions. */
export { summarise, SweepTally, type SweepSummary, type TaskSummary, type MilestoneSummary } from './sweep/summary.js';
/** The coordinator's core: a lazy source, a bounded number in flight on an executor, results in completion order. */
export { runBounded } from './sweep/bounded.js';
/** Expands sweep options into session specs in a deterministic order, lazily. */
export { expandMatrix, planMatrix, MatrixPlan, parseSeeds, parseShard, type SweepOptions, type SweepEntry, type SweepSpec, type SeedRange } from './sweep/matrix.js';
export { matchTasks } from './sweep/task-globs.js';
/** Reading a sweep folder's results (streaming, or as a list). */
export { readResults, resultLines, type SweepResultLine } from './sweep/results.js';
/** Comparing two sweeps: regressions, fixes, score changes, new errors. */
export { compareSweeps, sessionIdentity, type SweepComparison, type ComparedSession, type ScoreChange } from './sweep/compare.js';
/** Ranking candidates (one sweep each) with task-stratified bootstrap intervals and win probabilities. */
export { rankSweeps, type RankCandidate, type RankOptions, type Ranking, type CandidateRank, type Estimate, type RankMetric, type TaskMeans } from './sweep/rank.js';
/** Flakiness studies: repeat and perturbation modes. */
export { runFlaky, summariseFlaky, type FlakyOptions, type FlakyReport } from './sweep/flaky.js';
/** Re-running a sweep folder's sessions to check their hashes. */
export { verifySweep, type SweepVerifyReport, type HashMismatch } from './sweep/verify-sweep.js';

// Sweeps across machines (docs/DISTRIBUTED.md): `runSweep({ queue })` enqueues, `startQueueWorker` runs jobs.
// BullMQ and ioredis are loaded only when a queue is used.
/** The coordinator's queue options. */
export { DEFAULT_ATTEMPTS, DEFAULT_WINDOW, type QueueSweepOptions } from './queue/coordinator.js';
/** A queue worker: takes session jobs and runs them on this machine's warm pool. */
export { startQueueWorker, type QueueWorker, type QueueWorkerOptions, type QueueWorkerStats, type QueueWorkerExit } from './queue/worker.js';
/** Queue URLs (`redis://`, `rediss://`) with the password kept out of every message. */
export { parseQueueUrl, type QueueTarget } from './queue/url.js';
/** What a queue job may name: what to simulate, never a command or an output path (docs/FLEET.md). */
export { JOB_SPEC_FIELDS } from './queue/payload.js';
/** Outputs never clobber a user's file: the check every output flag makes, and the kinds of output it knows. */
export { checkOutputFile, type OutputKind, type OutputTarget } from './output-file.js';
/** A worker's task roots: the only folders a job may name files in. */
export { TaskRoots } from './queue/task-roots.js';
/** Sessions in worker processes with a wall-clock limit: the pool, its protocol, and one-off isolated runs. */
export { runSessionIsolated } from './session/isolated.js';
export {
  createSessionPool,
  resolveWorkerCount,
  SessionPool,
  SESSION_WORKER,
  DEFAULT_TIME_LIMIT,
  DEFAULT_BATCH_SECONDS,
  MAX_JOBS_PER_WORKER,
  MAX_WORKERS_PER_CORE,
  type SessionPoolOptions,
  type SessionExecutor,
  type PooledRun,
  type WorkerCount,
} from './session/pool.js';
export { DEFAULT_WORKER_HEAP_MB, resolveWorkerHeapMb, resolveWorkerV8Flags, WORKER_HEAP_MB_ENV, WORKER_V8_FLAGS_ENV } from './session/worker-flags.js';
export type { RunJob, WorkerReady, JobsDone, JobDone, PoolMessage, WorkerMessage, JobFailureKind } from './session/worker-protocol.js';
/** Reports: JUnit XML, the self-contained HTML report, and traces of recorded sessions. */
export { junitXml, writeJunit, xmlEscape, sessionLabel } from './report/junit.js';
export { htmlReport, htmlFromAggregate, type ReportInput, type FlakyRow } from './report/html.js';
export { writeReports, type ReportOptions } from './report/write.js';
export { traceStream, thinMinMax, MinMaxThinner, type ValidatorTrace } from './report/traces.js';
export { lineSvg, histogramSvg } from './report/svg.js';
export { aggregateResults, type ResultSource, type SweepAggregate } from './report/aggregate.js';
/** The sweep output folder. */
export { SweepFolder, type SweepManifest } from './sweep/folder.js';

// Physics, randomness, errors, versions
/** Initialises Rapier's WASM once per thread. */
export { initPhysics } from './physics/world.js';
/** Per-subsystem seeded random streams. */
export { RandomStreams, type RandomStream } from './random.js';
/** Errors and exit codes. */
export { XrsimInputError, StreamDamageError, QueueUnavailableError, ExitCode, describeThrown, THROWN_TEXT_LIMIT, type InputLocation } from './errors.js';
/** Versions that decide whether two runs are comparable bit for bit. */
export { KERNEL_VERSION, STREAM_FORMAT_VERSION } from './version.js';
/** Where the shipped data lives. */
export { SCENES_DIR, TASKS_DIR, PACKAGE_VERSION } from './paths.js';

// Seeing sessions
/** The viewer: a stream or sweep folder served on 127.0.0.1 for the 3D replay page; headless screenshots. */
export { startViewer, type Viewer } from './view/server.js';
export { openCatalog, type Catalog } from './view/catalog.js';
export { screenshotViewer, type ScreenshotOptions, type ScreenshotReport } from './view/screenshot.js';
export type { SessionsResponse, SessionSummary, StreamMeta, SceneDescription, Timeline, ViewerPageHandle } from './view/api-types.js';
/** A loopback-only static server with path-safe mounts (the viewer's; general enough for other local pages). */
export { startLoopbackServer, safePath, type LoopbackServer, type LoopbackServerOptions, type Mount, type Route } from './view/loopback-server.js';
/** Videos: frame sources (the simulation's view of a stream) encoded with ffmpeg. */
export { encodeVideo, checkVideoOutput, ffmpegPath, FFMPEG_INSTALL_HELP, type VideoOptions, type VideoReport } from './export/video.js';
export { SimulationViewSource, type VideoFrameSource, type SimulationViewOptions } from './export/video-source.js';
/** Exports: IWER action recordings, MCAP (Foxglove), JSON lines; events and frames as JSON. */
export { exportIwer, iwerFrame, iwerSchema, type IwerInputSchema } from './export/iwer.js';
export { exportMcap, type McapCounts } from './export/mcap.js';
export { exportJsonl } from './export/jsonl.js';
export { FrameJsonWriter, type FrameJsonOptions } from './export/frame-json.js';
export { eventJson, eventText, colliderNames, type EventJson } from './export/event-json.js';
