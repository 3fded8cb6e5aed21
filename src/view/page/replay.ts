/**
 * A session's 3D replay: three.js draws the world, the user and what was sensed at the tick shown; the
 * timeline plays, pauses, steps and seeks; plots and milestones arrive with the timeline, which the server
 * builds in the background, so the first frame is drawn as soon as its chunk is here.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { Milestone } from '../../validate/types.js';
import type { SessionSummary, StreamMeta, Timeline } from '../api-types.js';
import { getJson } from './dom.js';
import { Plots } from './plots.js';
import { DepthCloud, Tags3d } from './sensing3d.js';
import { SidePanel, type CameraPreset } from './side-panel.js';
import { StreamClient, type FrameAccess } from './stream-client.js';
import { TimelineUi } from './timeline-ui.js';
import { User3d } from './user3d.js';
import { World3d } from './world3d.js';

export class Replay {
  readonly client: StreamClient;
  readonly user: User3d;
  readonly world: World3d;
  readonly tags = new Tags3d();
  readonly cloud: DepthCloud | null;
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(60, 1, 0.02, 100);
  private readonly controls: OrbitControls;
  private readonly timelineUi: TimelineUi;
  private readonly panel: SidePanel;
  private plots: Plots | null = null;
  private tagNames = new Map<number, string>();
  private preset: CameraPreset = 'user';
  /** The tick drawn last, and the one asked for most recently. */
  tick = -1;
  private wanted = 0;
  private playing = false;
  private speed = 1;
  private playClock = { wall: 0, sim: 0 };
  private frame: FrameAccess | null = null;
  private renderQueued = false;
  /** Resolves when the first frame has been drawn; `firstFrameAt` is its `performance.now` reading. */
  readonly firstFrame: Promise<void>;
  firstFrameAt: number | null = null;
  private resolveFirstFrame!: () => void;
  private drawnWaiters: { tick: number; resolve: () => void }[] = [];
  timeline: Timeline | null = null;

  /**
   * @param firstTick the tick that will be shown first: its chunk is fetched at once, while the renderer and
   *   the room are built (the first frame waits for both)
   */
  constructor(
    readonly meta: StreamMeta,
    private readonly session: SessionSummary,
    firstTick = 0,
  ) {
    this.client = new StreamClient(meta);
    void this.client.chunk(this.client.chunkOf(Math.max(0, Math.min(meta.frames - 1, Math.round(firstTick))))).catch(() => undefined);
    this.firstFrame = new Promise((resolve) => (this.resolveFirstFrame = resolve));
    const host = document.getElementById('scene')!;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    host.prepend(this.renderer.domElement);
    this.scene.background = new THREE.Color(0xeef1f4);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8d8d, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(2, 4, 3);
    this.scene.add(sun);
    this.world = new World3d(meta.sceneDescription);
    this.user = new User3d(meta.sceneDescription);
    const depthCamera = meta.sceneDescription.depthCamera;
    this.cloud = depthCamera ? new DepthCloud(depthCamera) : null;
    this.scene.add(this.world.root, this.user.root, this.tags.root, ...(this.cloud ? [this.cloud.root] : []));
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => this.requestRender());
    const show = (objects: (THREE.Object3D | undefined)[]) => (visible: boolean) => {
      for (const o of objects) if (o) o.visible = visible;
      this.requestRender();
    };
    const byName = (name: string) => this.user.root.getObjectByName(name);
    const layers = {
      'walls and ceiling': show([...(this.world.byLabel.get('wall') ?? []), ...(this.world.byLabel.get('ceiling') ?? [])]),
      'trigger volumes': show(this.world.byLabel.get('sensor') ?? []),
      'detected planes': show([this.world.planesRoot]),
      'depth point cloud': show([this.cloud?.root]),
      'tagged objects': show([this.tags.root]),
      'head and frustum': show([byName('head')]),
      'contact probes': show([byName('contact-probes')]),
    };
    this.panel = new SidePanel(document.getElementById('side')!, meta, layers, (p) => this.usePreset(p), (t) => this.seek(t));
    this.timelineUi = new TimelineUi(document.getElementById('timeline')!, meta.frames, meta.dt, {
      seek: (t) => this.seek(t),
      play: () => this.play(),
      pause: () => this.pause(),
      step: (d) => this.seek(this.wanted + d),
      speed: (s) => {
        this.speed = s;
        this.playClock = { wall: performance.now(), sim: this.wanted * meta.dt }; // xrsim-allow-clock: playback runs on the viewer's wall clock
      },
    });
    if (session.milestones) this.panel.setMilestones(session.milestones, 'as scored by the sweep:');
    new ResizeObserver(() => this.resize()).observe(host);
    this.resize();
  }

  /** Shows `tick` first, then loads the timeline. */
  async start(tick: number): Promise<void> {
    await this.seek(tick);
    this.usePreset('user');
    void this.loadTimeline();
  }

  /** Shows `tick` (clamped); resolves when it has been drawn. */
  seek(tick: number): Promise<void> {
    const target = Math.max(0, Math.min(this.meta.frames - 1, Math.round(tick)));
    this.wanted = target;
    if (this.playing) this.playClock = { wall: performance.now(), sim: target * this.meta.dt }; // xrsim-allow-clock: playback runs on the viewer's wall clock
    const drawn = new Promise<void>((resolve) => this.drawnWaiters.push({ tick: target, resolve }));
    void this.client.frame(target).then((frame) => {
      if (this.wanted !== target) return;
      this.apply(frame);
      if (this.playing) this.client.prefetchAfter(target);
    });
    return drawn;
  }

  play(): void {
    if (this.wanted >= this.meta.frames - 1) void this.seek(0);
    this.playing = true;
    this.playClock = { wall: performance.now(), sim: this.wanted * this.meta.dt }; // xrsim-allow-clock: playback runs on the viewer's wall clock
    this.timelineUi.setPlaying(true);
    const loop = () => {
      if (!this.playing) return;
      const sim = this.playClock.sim + ((performance.now() - this.playClock.wall) / 1000) * this.speed; // xrsim-allow-clock: playback runs on the viewer's wall clock
      const tick = Math.min(this.meta.frames - 1, Math.floor(sim / this.meta.dt + 1e-6));
      if (tick !== this.wanted) void this.seek(tick);
      if (tick >= this.meta.frames - 1) this.pause();
      else requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  pause(): void {
    this.playing = false;
    this.timelineUi.setPlaying(false);
  }

  /** Draw calls and primitives of the last render (the tests check that something was drawn). */
  drawInfo(): { calls: number; triangles: number; points: number; lines: number } {
    const { calls, triangles, points, lines } = this.renderer.info.render;
    return { calls, triangles, points, lines };
  }

  private apply(frame: FrameAccess): void {
    this.frame = frame;
    const channel = (name: string) => frame.channel(name);
    this.world.update(frame.tick, channel('bodies'));
    this.user.update(channel);
    this.tags.update(frame.events());
    if (this.cloud) {
      const depth = frame.latestDepth();
      this.cloud.update(depth?.image ?? null, depth ? frame.channel('head', depth.row) : undefined);
    }
    this.panel.setTags(this.tags.present, this.tagNames);
    this.timelineUi.setTick(frame.tick);
    this.plots?.setTime(frame.tick * this.meta.dt);
    if (this.preset === 'head') this.followHead();
    this.render();
    this.tick = frame.tick;
    document.getElementById('overlay')!.textContent = `tick ${frame.tick} · ${(frame.tick * this.meta.dt).toFixed(3)} s`;
    if (this.firstFrameAt === null) {
      this.firstFrameAt = performance.now(); // xrsim-allow-clock: playback runs on the viewer's wall clock
      this.resolveFirstFrame();
    }
    this.drawnWaiters = this.drawnWaiters.filter((w) => {
      if (w.tick !== frame.tick && w.tick === this.wanted) return true;
      w.resolve();
      return false;
    });
  }

  private async loadTimeline(): Promise<void> {
    let timeline: Timeline;
    try {
      timeline = await getJson<Timeline>(`/api/session/${encodeURIComponent(this.meta.id)}/timeline`);
    } catch (err) {
      document.getElementById('status')!.textContent = `timeline unavailable: ${(err as Error).message}`;
      return;
    }
    this.timeline = timeline;
    this.tagNames = new Map(timeline.tags.map((t) => [t.index, `${t.role} (${t.id})`]));
    this.world.setHistory(timeline.planes, timeline.surfaces);
    const milestones: Milestone[] = this.session.milestones ?? timeline.milestones;
    if (!this.session.milestones) this.panel.setMilestones(timeline.milestones, 'as scored on this replay:');
    this.timelineUi.setMarkers(timeline.events, milestones);
    this.panel.plots.replaceChildren();
    this.plots = new Plots(this.panel.plots, timeline.traces, milestones, (this.meta.frames - 1) * this.meta.dt, this.meta.dt, (s) => this.seek(s / this.meta.dt));
    const counts = Object.entries(timeline.eventCounts).map(([name, n]) => `${n} ${name}`).join(', ');
    document.getElementById('status')!.textContent = timeline.error ? `stream read in part: ${timeline.error}` : counts ? `events: ${counts}` : 'no events';
    if (this.frame) this.apply(this.frame);
  }

  private usePreset(preset: CameraPreset): void {
    this.preset = preset;
    this.controls.enabled = preset !== 'head';
    // From the user's eyes, their own head would fill the view.
    this.user.root.getObjectByName('head')!.visible = preset !== 'head';
    const head = this.frame?.channel('head');
    const [hx, hy, hz] = head ? [head[0], head[1], head[2]] : [0, 1.6, 0];
    if (preset === 'room') {
      const [x, y, z] = this.meta.sceneDescription.room;
      this.camera.position.set(x * 0.55, y * 1.35, z * 0.75);
      this.controls.target.set(0, 0.5, 0);
    } else if (preset === 'user') {
      this.camera.position.set(hx + 1.4, hy + 0.6, hz + 1.8);
      this.controls.target.set(hx, hy - 0.35, hz - 0.3);
    }
    this.camera.fov = preset === 'head' ? (2 * Math.atan(Math.tan((this.meta.sceneDescription.headFrustum.fovDeg * Math.PI) / 360) / this.camera.aspect) * 180) / Math.PI : 60;
    this.camera.updateProjectionMatrix();
    if (preset === 'head') this.followHead();
    else this.controls.update();
    this.requestRender();
  }

  private followHead(): void {
    const head = this.frame?.channel('head');
    if (!head) return;
    this.camera.position.set(head[0], head[1], head[2]);
    this.camera.quaternion.set(head[3], head[4], head[5], head[6]);
  }

  private resize(): void {
    const host = this.renderer.domElement.parentElement!;
    const { clientWidth: w, clientHeight: h } = host;
    if (w === 0 || h === 0) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  private requestRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  private render(): void {
    this.renderer.render(this.scene, this.camera);
  }
}
