// The poke-button app, with the variations the adversarial apps make. A button is placed in front of the
// user at start, facing them; a finger pressing into its face counts as a press.
import { xr } from 'xrsim';

/** Options: how far in front of the head the button goes, and how presses are detected. */
export function buttonApp({ distance = 0.38, enterDepth = 0.008, exitDepth = 0.003, perFrame = false } = {}) {
  return {
    setup(ctx) {
      ctx.state.pressed = new Map();
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (!s.button) {
        const head = frame.viewerPose.transform;
        const front = xr.flatForward(head);
        const position = xr.add(xr.vec(head.position), xr.add(xr.scale(front, distance), [0, -0.28, 0]));
        // The face looks back at the user: its +Z axis is the outward normal.
        s.button = { position, normal: xr.scale(front, -1), rotation: xr.facing(xr.scale(front, -1)) };
        ctx.tag('button', 'big-red-button', () => ({ position: s.button.position, rotation: s.button.rotation }));
      }
      for (const source of frame.inputSources) {
        const tip = xr.joint(source, 'index-finger-tip');
        if (!tip) continue;
        const depth = xr.pressDepth(tip, s.button.position, s.button.normal, 0.03);
        const was = s.pressed.get(source.handedness) ?? false;
        if (perFrame) {
          if (depth >= enterDepth) ctx.emit('button-pressed', { hand: source.handedness });
          continue;
        }
        if (!was && depth >= enterDepth) {
          s.pressed.set(source.handedness, true);
          ctx.emit('button-pressed', { hand: source.handedness });
        } else if (was && depth < exitDepth) {
          s.pressed.set(source.handedness, false);
        }
      }
    },
  };
}
