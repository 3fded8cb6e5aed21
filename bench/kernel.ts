/**
 * The kernel benchmark (issue 2): per-tick cost of xrsim against bare Rapier stepping the identical world,
 * with and without recording; stream encoding speed and size; the real-time factor; and flat memory over
 * long sessions.
 *
 * Ratios are taken within one run: every trial times each variant back to back (in rotating order), and the
 * reported ratio is the median over trials of the paired ratios, which cancels most machine noise.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import RAPIER from '@dimforge/rapier3d-deterministic-compat';
import { Frame } from '../src/frame/frame.js';
import { initPhysics, Session, SimState, StreamWriter, type SimModel } from '../src/index.js';
import { buildStreamHeader } from '../src/stream/header.js';
import { deflateRawSync } from 'node:zlib';
import { ChunkPacker } from '../src/stream/chunk-codec.js';
import { median, round, seconds } from './stats.js';
import { dropModel } from './worlds.js';

const TRIALS = 15;
const WARMUP = 2;

/** Bare Rapier: the identical world (built by the same code), stepped with `world.step`, nothing read. */
async function bareRapier(model: SimModel): Promise<number> {
  // The same state a session builds (the user included, so the hands' kinematic bodies are there too).
  const physics = new SimState(await initPhysics(), model, 1, 'right').physics;
  // Same collider event flags as the kernel's, auto-drained: Rapier generates the events either way.
  const queue = new RAPIER.EventQueue(true);
  const steps = model.timing.durationTicks * model.timing.substeps;
  const elapsed = await seconds(() => {
    for (let i = 0; i < steps; i++) physics.world.step(queue);
  });
  queue.free();
  physics.free();
  return elapsed;
}

/** The xrsim kernel: the full tick pipeline, optionally recording a lossless stream to disk. */
async function kernel(model: SimModel, recordTo?: string): Promise<number> {
  const session = await Session.create(model, { seed: 1, record: recordTo ? { path: recordTo } : undefined });
  return seconds(() => {
    while (!session.done) session.step();
    session.finish();
  });
}

async function compareWithRapier(bodies: number, dir: string, duration = 10) {
  const model = dropModel(bodies, duration);
  const variants = {
    rapier: () => bareRapier(model),
    kernel: () => kernel(model),
    recording: () => kernel(model, join(dir, `ratio-${bodies}-${duration}.xrs`)),
  };
  const names = Object.keys(variants) as (keyof typeof variants)[];
  const times: Record<string, number[]> = { rapier: [], kernel: [], recording: [] };
  for (let trial = 0; trial < TRIALS + WARMUP; trial++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(trial + k) % names.length];
      const t = await variants[name]();
      if (trial >= WARMUP) times[name].push(t);
    }
  }
  const ticks = model.timing.durationTicks;
  const paired = (name: string) => median(times[name].map((t, i) => t / times.rapier[i]));
  return {
    bodies,
    seconds: duration,
    ticks,
    usPerTick: {
      rapier: round((median(times.rapier) / ticks) * 1e6),
      kernel: round((median(times.kernel) / ticks) * 1e6),
      recording: round((median(times.recording) / ticks) * 1e6),
    },
    kernelVsRapier: round(paired('kernel')),
    recordingVsRapier: round(paired('recording')),
  };
}

/** Encode throughput and size: the frames of a session written through the stream writer. */
async function encoding(bodies: number, dir: string) {
  const model = dropModel(bodies);
  const session = await Session.create(model, { seed: 1 });
  const frames: { words: Uint32Array; events: Uint32Array; hash: Uint32Array }[] = [];
  const capture = () => {
    const f = session.state.frame;
    frames.push({ words: f.words.slice(), events: f.events.slice(0, f.eventWords), hash: session.state.frameHash.slice() });
  };
  capture();
  while (!session.done) {
    session.step();
    capture();
  }
  session.finish();
  const frame = new Frame(session.state.frame.layout);
  const result = {} as Record<'lossless' | 'quantised', { mbPerS: number; bytesPerFrame: number; ratio: number }>;
  for (const mode of ['lossless', 'quantised'] as const) {
    const path = join(dir, `encode-${bodies}-${mode}.xrs`);
    const runs: number[] = [];
    let rawBytes = 0;
    for (let trial = 0; trial < 5; trial++) {
      const writer = new StreamWriter(path, buildStreamHeader(model, { seed: 1, dominantHand: 'right', spec: {}, encoding: mode }));
      rawBytes = 0;
      runs.push(
        await seconds(() => {
          for (const f of frames) {
            frame.words.set(f.words);
            frame.setEvents(f.events, f.events.length);
            writer.append(frame, f.hash);
            rawBytes += f.words.byteLength + f.events.byteLength;
          }
          writer.close(new Uint32Array(2));
        }),
      );
    }
    const size = statSync(path).size;
    result[mode] = { mbPerS: round(rawBytes / 1e6 / median(runs)), bytesPerFrame: round(size / frames.length), ratio: round(rawBytes / size) };
  }
  return { bodies, frames: frames.length, frameBytes: frames[0].words.byteLength, ...result };
}

/** Deflate level trade-off on the real chunk payloads of a 100-body session (the default level is chosen from this). */
async function compressionLevels() {
  const model = dropModel(100);
  const session = await Session.create(model, { seed: 1 });
  const layout = session.state.frame.layout;
  const packer = new ChunkPacker(layout.fixedBytes, 90, layout.channels, 'lossless');
  const payloads: Buffer[] = [];
  const add = () => {
    packer.add(session.state.frame, session.state.frameHash);
    if (packer.frames === packer.capacity) payloads.push(Buffer.from(packer.pack()));
  };
  add();
  while (!session.done) {
    session.step();
    add();
  }
  session.finish();
  const frames = payloads.length * 90;
  const levels: Record<string, { bytesPerFrame: number; usPerFrame: number }> = {};
  for (const level of [1, 3, 6, 9]) {
    let bytes = 0;
    const times: number[] = [];
    for (let trial = 0; trial < 6; trial++) {
      const t = await seconds(() => {
        bytes = payloads.reduce((sum, p) => sum + deflateRawSync(p, { level }).length, 0);
      });
      if (trial > 0) times.push(t); // the first trial warms zlib up
    }
    const time = median(times);
    levels[`level${level}`] = { bytesPerFrame: round(bytes / frames), usPerFrame: round((time / frames) * 1e6) };
  }
  return levels;
}

/** Wall time of a 10 s, 10-body session from model to result (no recording). */
async function realtime() {
  const model = dropModel(10, 10);
  const runs: number[] = [];
  for (let trial = 0; trial < 5; trial++) runs.push(await seconds(() => Session.create(model, { seed: trial }).then((s) => s.run())));
  const wall = median(runs);
  return { simulatedS: 10, wallS: round(wall), realtimeFactor: round(10 / wall) };
}

/**
 * Peak RSS of a recorded 10-body session of 10 s and of 10 min, each in a fresh, equally warmed process
 * (see rss-child.ts). Flat memory means the long session's peak is within 30 MB of the short one's.
 */
function memory(dir: string) {
  const child = fileURLToPath(new URL('./rss-child.js', import.meta.url));
  const measure = (duration: number) =>
    JSON.parse(execFileSync(process.execPath, [child, String(duration), join(dir, `rss-${duration}.xrs`)], { encoding: 'utf8' })) as {
      warmRssMb: number;
      sessionPeakRssMb: number;
      processMaxRssMb: number;
    };
  const short = measure(10);
  const long = measure(600);
  return {
    rss10sMb: round(short.sessionPeakRssMb),
    rss600sMb: round(long.sessionPeakRssMb),
    deltaMb: round(long.sessionPeakRssMb - short.sessionPeakRssMb),
    warmRssMb: { short: round(short.warmRssMb), long: round(long.warmRssMb) },
    processMaxRssMb: { short: round(short.processMaxRssMb), long: round(long.processMaxRssMb) },
  };
}

/** Runs the kernel suite and returns its figures. */
export async function kernelBenchmark(progress: (line: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-bench-'));
  try {
    progress('kernel vs bare Rapier, 10 bodies …');
    const ten = await compareWithRapier(10, dir);
    progress('kernel vs bare Rapier, 100 bodies …');
    const hundred = await compareWithRapier(100, dir);
    progress('kernel vs bare Rapier, 100 bodies, first second only (all falling and colliding) …');
    const hundredActive = await compareWithRapier(100, dir, 1);
    progress('stream encoding …');
    const encode10 = await encoding(10, dir);
    const encode100 = await encoding(100, dir);
    const levels = await compressionLevels();
    progress('real-time factor …');
    const rt = await realtime();
    progress('peak RSS, 10 s and 10 min sessions …');
    const rss = memory(dir);
    return {
      details: { ten, hundred, hundredActive, encode10, encode100, compressionLevels100: levels, realtime: rt, rss },
      summary: {
        kernel_vs_rapier_10: ten.kernelVsRapier,
        kernel_vs_rapier_100: hundred.kernelVsRapier,
        recording_vs_rapier_10: ten.recordingVsRapier,
        recording_vs_rapier_100: hundred.recordingVsRapier,
        kernel_vs_rapier_100_active: hundredActive.kernelVsRapier,
        recording_vs_rapier_100_active: hundredActive.recordingVsRapier,
        encode_mb_per_s: encode100.lossless.mbPerS,
        bytes_per_frame_lossless: encode100.lossless.bytesPerFrame,
        bytes_per_frame_quantised: encode100.quantised.bytesPerFrame,
        realtime_factor: rt.realtimeFactor,
        rss_delta_mb: rss.deltaMb,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
