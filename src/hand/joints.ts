/**
 * The OpenXR 26-joint hand and its WebXR 25-joint view.
 */

/** OpenXR joint names, in enum order (index = `XrHandJointEXT` value). */
export const OPENXR_JOINTS = [
  'palm', 'wrist',
  'thumb-metacarpal', 'thumb-proximal', 'thumb-distal', 'thumb-tip',
  'index-metacarpal', 'index-proximal', 'index-intermediate', 'index-distal', 'index-tip',
  'middle-metacarpal', 'middle-proximal', 'middle-intermediate', 'middle-distal', 'middle-tip',
  'ring-metacarpal', 'ring-proximal', 'ring-intermediate', 'ring-distal', 'ring-tip',
  'little-metacarpal', 'little-proximal', 'little-intermediate', 'little-distal', 'little-tip',
] as const;

/** An OpenXR joint name. */
export type JointName = (typeof OPENXR_JOINTS)[number];

/** WebXR joint names (`XRHand` order): OpenXR without the palm; "little" is "pinky"; "phalanx-" names. */
export const WEBXR_JOINTS = OPENXR_JOINTS.slice(1).map(webxrName);

/** WebXR index of an OpenXR joint: OpenXR index − 1 (the palm has none). */
export function webxrIndex(openxrIndex: number): number {
  return openxrIndex - 1;
}

/** The WebXR name of an OpenXR joint name. */
export function webxrName(name: JointName | string): string {
  if (name === 'wrist') return 'wrist';
  const [digit, part] = name.split('-');
  if (digit === 'thumb') return part === 'metacarpal' || part === 'tip' ? `thumb-${part}` : `thumb-phalanx-${part}`;
  const finger = digit === 'little' ? 'pinky' : digit;
  return part === 'metacarpal' || part === 'tip' ? `${finger}-finger-${part}` : `${finger}-finger-phalanx-${part}`;
}

/** Joints whose bone has a length (every joint but the palm, the wrist and the tips). */
export function hasBone(name: JointName): boolean {
  return name !== 'palm' && name !== 'wrist' && !name.endsWith('-tip');
}

/** Metacarpal joints: their position is given relative to the wrist. */
export function isMetacarpal(name: JointName): boolean {
  return name.endsWith('-metacarpal');
}
