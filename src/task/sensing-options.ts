/**
 * What a session's senses are: the depth camera and plane detection, as written in a task's or a session
 * spec's `sensing` section, and as resolved into the model. Everything is off unless asked for, so sessions
 * that do not sense pay nothing.
 */
import { XrsimInputError } from '../errors.js';
import { quatFromEulerDeg, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { ownEntry } from '../json/names.js';
import { DEPTH_NOISE, type DepthNoiseParams, type DepthNoisePreset } from './noise-presets.js';

/** The depth camera, as written. Every field is optional. */
export interface DepthSensorOptions {
  width?: number;
  height?: number;
  horizontalFovDeg?: number;
  /** Relative to the eye centre, in the head frame. */
  position?: Vec3;
  eulerDeg?: Vec3;
  minRange?: number;
  maxRange?: number;
  rateHz?: number;
  format?: 'uint16' | 'float32';
  noise?: DepthNoisePreset;
  includeHands?: boolean;
  record?: boolean;
}

/** Plane detection, as written. Every field is optional. */
export interface PlaneDetectionOptions {
  latency?: number;
  minSeenArea?: number;
  cellSize?: number;
  completeFraction?: number;
  minPlaneArea?: number;
}

/** The `sensing` section of a task or a session spec. */
export interface SensingOptions {
  depth?: boolean | DepthSensorOptions;
  planes?: boolean | PlaneDetectionOptions;
}

/** The resolved depth camera. */
export interface DepthSensorModel {
  width: number;
  height: number;
  horizontalFov: number;
  /** Pose relative to the head (eye centre, yaw then pitch). */
  mount: Pose;
  rateHz: number;
  format: 'uint16' | 'float32';
  noisePreset: DepthNoisePreset;
  noise: DepthNoiseParams;
  includeHands: boolean;
  record: boolean;
}

/** The resolved plane detection. */
export interface PlaneDetectionModel {
  latency: number;
  minSeenArea: number;
  cellSize: number;
  completeFraction: number;
  minPlaneArea: number;
}

/** The resolved senses of a model. */
export interface SensingModel {
  depth: DepthSensorModel | null;
  planes: PlaneDetectionModel | null;
}

/** Largest resolution, per side. */
export const MAX_DEPTH_RESOLUTION = 4096;

/**
 * Resolves the task's and the spec's sections (the spec's fields override the task's). Schema validation
 * has already checked each field; this checks what a schema cannot, such as min range below max range.
 */
export function resolveSensing(task: SensingOptions | undefined, spec: SensingOptions | undefined, file: string): SensingModel {
  const merge = <T extends object>(a: boolean | T | undefined, b: boolean | T | undefined): T | null => {
    if (b === false || (b === undefined && !a)) return null;
    return { ...(typeof a === 'object' ? a : {}), ...(typeof b === 'object' ? b : {}) } as T;
  };
  const planeOptions = merge<PlaneDetectionOptions>(task?.planes, spec?.planes);
  let depthOptions = merge<DepthSensorOptions>(task?.depth, spec?.depth);
  // Planes are discovered by the depth camera: run it, unrecorded, if it was not asked for.
  if (planeOptions && !depthOptions) depthOptions = { record: false };
  return {
    depth: depthOptions ? resolveDepth(depthOptions, file) : null,
    planes: planeOptions
      ? {
          latency: planeOptions.latency ?? 0.5,
          minSeenArea: planeOptions.minSeenArea ?? 0.1,
          cellSize: planeOptions.cellSize ?? 0.05,
          completeFraction: planeOptions.completeFraction ?? 0.6,
          minPlaneArea: planeOptions.minPlaneArea ?? 0.04,
        }
      : null,
  };
}

function resolveDepth(o: DepthSensorOptions, file: string): DepthSensorModel {
  const fail = (field: string, message: string, expected: string): never => {
    throw new XrsimInputError(message, { file, jsonPath: `$.sensing.depth.${field}`, expected });
  };
  const width = o.width ?? 160;
  const height = o.height ?? 120;
  // The schema checks these too; repeat them for models built from objects that skipped it.
  for (const [field, value] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_DEPTH_RESOLUTION) {
      fail(field, `depth ${field} must be an integer from 1 to ${MAX_DEPTH_RESOLUTION}, got ${value}`, `an integer 1..${MAX_DEPTH_RESOLUTION}`);
    }
  }
  const fovDeg = o.horizontalFovDeg ?? 80;
  if (!(fovDeg > 0 && fovDeg < 180)) fail('horizontalFovDeg', `the field of view must be below 180°, got ${fovDeg}`, 'degrees in (0, 180)');
  const presetName = o.noise ?? 'ideal';
  const preset = ownEntry(DEPTH_NOISE, presetName) ?? fail('noise', `unknown noise preset ${JSON.stringify(presetName)}`, Object.keys(DEPTH_NOISE).join(', '));
  const minRange = o.minRange ?? preset.minRange;
  const maxRange = o.maxRange ?? preset.maxRange;
  if (!(minRange < maxRange)) fail('minRange', `minRange ${minRange} m must be below maxRange ${maxRange} m`, 'minRange < maxRange');
  if (maxRange > 65) fail('maxRange', `maxRange ${maxRange} m is beyond the 65.535 m a uint16 in millimetres can hold`, 'at most 65 m');
  const rateHz = o.rateHz ?? 30;
  if (!(rateHz > 0)) fail('rateHz', `rateHz must be positive, got ${rateHz}`, 'frames per second > 0');
  return {
    width,
    height,
    horizontalFov: (fovDeg * Math.PI) / 180,
    mount: { position: [...(o.position ?? [0, 0, -0.05])], rotation: quatFromEulerDeg(o.eulerDeg) },
    rateHz,
    format: o.format ?? 'uint16',
    noisePreset: presetName,
    noise: { ...preset, minRange, maxRange },
    includeHands: o.includeHands ?? true,
    record: o.record ?? true,
  };
}
