/**
 * `xrsim pose`: one hand's joints for a named pose, as WebXR or OpenXR JSON.
 */
import { ExitCode, XrsimInputError } from '../../errors.js';
import { loadHandModel } from '../../hand/hand-model.js';
import { OPENXR_JOINTS, webxrName } from '../../hand/joints.js';
import { defaultWristPose, poseHand } from '../../user/posed-hand.js';
import { resolvePose } from '../../hand/poses.js';
import { parseChoiceArg, parseNumberArg, printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';

/** `xrsim pose NAME`. */
export const poseCommand: Command = {
  name: 'pose',
  summary: 'print one hand’s joints for a named pose, as WebXR or OpenXR JSON',
  help: `xrsim pose NAME [--hand right|left] [--size small|medium|large] [--hand-model PATH]
                [--format webxr-json|openxr-json] [--diameter METRES]

  NAME                a pose from hand-models/poses.json, or grab (closed around a sphere)
  --hand H            right (default) or left
  --size S            small, medium (default) or large; or give --hand-model PATH for your own model
  --format F          webxr-json (default): { joints: [{ name, position, orientation, radius }] }, 25 joints
                      in WebXR order; openxr-json: the same with all 26 joints in OpenXR order
  --diameter D        for grab: the sphere's diameter in metres (default 0.07)

The wrist is at the default pose in front of a standing user's chest: user at the origin facing −Z,
wrist at (±0.16, 1.15, −0.30) m for a medium hand (scaled with hand size), palm down, fingers forward,
turned as the gesture is usually made (thumbs-up turns the thumb up). Positions in metres, orientations
as quaternions [x, y, z, w], OpenXR axes (−Z along the bone, +Y out of the back of the hand).`,
  options: {
    hand: { type: 'string' },
    size: { type: 'string' },
    'hand-model': { type: 'string' },
    format: { type: 'string' },
    diameter: { type: 'string' },
  },
  positionals: true,
  async run({ values, positionals }) {
    const v = values as Record<string, string | undefined>;
    const name = requireOnePath(positionals, 'pose NAME');
    const side = parseChoiceArg('hand', v.hand, ['right', 'left'] as const, 'right');
    if (v.size !== undefined && v['hand-model'] !== undefined) throw new XrsimInputError('give --size or --hand-model, not both');
    const size = parseChoiceArg('size', v.size, ['small', 'medium', 'large'] as const, 'medium');
    const format = parseChoiceArg('format', v.format, ['webxr-json', 'openxr-json'] as const, 'webxr-json');
    const model = loadHandModel(v['hand-model'] ?? size);
    const pose = resolvePose(name, model, { diameter: parseNumberArg('diameter', v.diameter, false) });
    const hand = poseHand(model, pose, side, defaultWristPose(model, side, pose));
    const round = (x: number) => Math.round(x * 1e6) / 1e6;
    const joints = OPENXR_JOINTS.map((joint, j) => ({
      name: format === 'webxr-json' ? webxrName(joint) : joint,
      position: Array.from(hand.positions.subarray(j * 3, j * 3 + 3), round),
      orientation: Array.from(hand.orientations.subarray(j * 4, j * 4 + 4), round),
      radius: round(hand.radii[j]),
    }));
    printJson({ joints: format === 'webxr-json' ? joints.slice(1) : joints });
    return ExitCode.ok;
  },
};
