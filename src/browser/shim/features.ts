/**
 * Session features and reference spaces. The world of the simulator is `local-floor` (floor at y = 0);
 * `local` has its origin where the viewer was at the first frame it was used, turned to the viewer's yaw.
 */
import type { DeviceState } from './device.js';
import { domError, type Resolver } from './primitives.js';
import { IDENTITY_POSE, normalizeQuat, type Pose } from './math.js';

export const SUPPORTED_FEATURES = ['viewer', 'local', 'local-floor', 'bounded-floor', 'unbounded', 'hand-tracking', 'plane-detection', 'depth-sensing', 'hit-test', 'anchors'];

export interface SessionInit {
  requiredFeatures?: string[];
  optionalFeatures?: string[];
  depthSensing?: { usagePreference?: string[]; dataFormatPreference?: string[] };
}

type DepthFormat = 'luminance-alpha' | 'float32' | 'unsigned-short';

/**
 * The enabled features of a new session: every required one (or NotSupportedError), the supported
 * optional ones, and `viewer` and `local`, which immersive sessions always get.
 */
export function negotiateFeatures(mode: string, init: SessionInit): { features: string[]; depthFormat: DepthFormat } {
  const required = [...(init.requiredFeatures ?? [])].map(String);
  const optional = [...(init.optionalFeatures ?? [])].map(String);
  const depth = depthChoice(init.depthSensing);
  const grant = (feature: string) => SUPPORTED_FEATURES.includes(feature) && (feature !== 'depth-sensing' || depth !== null);
  for (const feature of required) {
    if (!grant(feature)) {
      const why = feature === 'depth-sensing' ? ' (it needs a depthSensing dictionary allowing cpu-optimized usage)' : '';
      throw domError('NotSupportedError', `XRSystem.requestSession: required feature "${feature}" is not supported${why}`);
    }
  }
  const features = ['viewer', 'local'];
  for (const feature of [...required, ...optional]) if (grant(feature) && !features.includes(feature)) features.push(feature);
  void mode;
  return { features, depthFormat: depth ?? 'unsigned-short' };
}

/** The data format chosen from the page's preferences (first one offered), or null when none can be served. */
function depthChoice(init: SessionInit['depthSensing']): DepthFormat | null {
  if (!init) return null;
  const usage = init.usagePreference ?? [];
  if (usage.length > 0 && !usage.includes('cpu-optimized')) return null;
  const formats = init.dataFormatPreference ?? [];
  if (formats.length === 0) return 'unsigned-short';
  const offered = formats.find((f) => f === 'unsigned-short' || f === 'float32' || f === 'luminance-alpha');
  return (offered as DepthFormat | undefined) ?? null;
}

/** How a reference space of `type` finds its world pose. */
export function resolveReferenceSpace(type: string, device: DeviceState): Resolver | null {
  switch (type) {
    case 'viewer':
      return () => device.viewer;
    case 'local-floor':
    case 'bounded-floor':
    case 'unbounded':
      return () => IDENTITY_POSE;
    case 'local': {
      let origin: Pose | null = null;
      return () => {
        if (!origin && device.viewer) {
          const v = device.viewer;
          // Yaw only: the viewer's forward (−Z) projected onto the floor.
          const fx = -2 * (v[3] * v[5] + v[6] * v[4]);
          const fz = -(1 - 2 * (v[3] * v[3] + v[4] * v[4]));
          const yaw = Math.atan2(-fx, -fz);
          const [qx, qy, qz, qw] = normalizeQuat(0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2));
          origin = [v[0], v[1], v[2], qx, qy, qz, qw];
        }
        return origin;
      };
    }
    default:
      return null;
  }
}
