// The find-control app, with the variations the adversarial apps make. On its first frame it lays out a
// panel of four round buttons (settings, help, volume, close) in front of the user, and the seed decides
// both where the panel is (turned up to 25° left or right, a little up or down) and which button sits in
// which slot: a fixed actor script cannot know where "settings" is, so the task's actor asks an agent.
// A fingertip pressing 8 mm into a button's face presses it (released back within 3 mm), unless told other depths.
import { xr } from 'xrsim';

const CONTROLS = ['settings', 'help', 'volume', 'close'];
/** The slots' offsets along the panel (metres, to the user's right). */
const SLOTS = [-0.105, -0.035, 0.035, 0.105];
const RADIUS = 0.025;

/**
 * Options: the panel's distance from the eyes; `mirroredTags` tags each button at the mirror image of its
 * slot (the slot offset taken along the panel's left instead of its right); `controls` says which buttons the
 * panel has; a press starts `enterDepth` metres past the face and ends back within `exitDepth` (negative: in
 * front of it).
 */
export function controlPanel({ distance = 0.38, mirroredTags = false, controls = CONTROLS, enterDepth = 0.008, exitDepth = 0.003 } = {}) {
  return {
    setup(ctx) {
      ctx.state.pressed = new Map();
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (!s.buttons) s.buttons = layOut(frame.viewerPose.transform, ctx, { distance, mirroredTags, controls });
      for (const source of frame.inputSources) {
        const tip = xr.joint(source, 'index-finger-tip');
        if (!tip) continue;
        for (const button of s.buttons) {
          const depth = xr.pressDepth(tip, button.position, button.normal, RADIUS);
          const key = `${source.handedness}:${button.control}`;
          const was = s.pressed.get(key) ?? false;
          if (!was && depth >= enterDepth) {
            s.pressed.set(key, true);
            if (button.control === 'settings') ctx.emit('settings-opened', { hand: source.handedness });
            else ctx.emit('wrong-control', { control: button.control, hand: source.handedness });
          } else if (was && depth < exitDepth) {
            s.pressed.set(key, false);
          }
        }
      }
    },
  };
}

/** The seeded layout: the panel's turn and height, and the buttons' order in the slots. */
function layOut(head, ctx, { distance, mirroredTags, controls }) {
  const turn = ((ctx.random() * 2 - 1) * 25 * Math.PI) / 180;
  const lift = (ctx.random() * 2 - 1) * 0.05;
  const order = [...controls];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(ctx.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const ahead = xr.flatForward(head);
  // Turned about the vertical: +turn is to the user's left.
  const front = [ahead[0] * Math.cos(turn) + ahead[2] * Math.sin(turn), 0, -ahead[0] * Math.sin(turn) + ahead[2] * Math.cos(turn)];
  const right = [-front[2], 0, front[0]];
  const centre = xr.add(xr.add(xr.vec(head.position), xr.scale(front, distance)), [0, -0.25 + lift, 0]);
  const normal = xr.scale(front, -1);
  const rotation = xr.facing(normal);
  return order.map((control, slot) => {
    const position = xr.add(centre, xr.scale(right, SLOTS[slot]));
    const tagged = mirroredTags ? xr.add(centre, xr.scale(right, -SLOTS[slot])) : position;
    ctx.tag(`${control}-button`, `control:${control}`, () => ({ position: tagged, rotation }));
    return { control, position, normal };
  });
}
