// The chime-button app, with the variations the adversarial apps make. A button is placed in front of the
// user at start, facing them; a fingertip pressing 8 mm into its face (released back within 3 mm) is a
// press, and each press plays a short chime at the button.
import { xr } from 'xrsim';

const ENTER_DEPTH = 0.008;
const EXIT_DEPTH = 0.003;
const RADIUS = 0.03;
/** The chime's length, simulated seconds. */
const CHIME_SECONDS = 0.3;

/**
 * Options: `at` is where the chime plays (`button`; `head`: 0.45 m in front of the eyes; `listener`: not
 * spatialised), `when` when it starts (`press`; `release`: when the finger leaves the button; `every-frame`:
 * a looping voice on every frame the finger is in, never stopped).
 */
export function chimeApp({ at = 'button', when = 'press' } = {}) {
  return {
    setup(ctx) {
      ctx.state.pressed = new Map();
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (!s.button) s.button = placeButton(frame, ctx);
      for (const source of frame.inputSources) {
        const tip = xr.joint(source, 'index-finger-tip');
        if (!tip) continue;
        const was = s.pressed.get(source.handedness) ?? false;
        const depth = depthBehindFace(tip, s.button);
        const now = was ? depth >= EXIT_DEPTH : depth >= ENTER_DEPTH;
        s.pressed.set(source.handedness, now);
        if (now && !was) ctx.emit('button-pressed', { hand: source.handedness });
        const chime = when === 'press' ? now && !was : when === 'release' ? was && !now : now;
        if (!chime) continue;
        const position = at === 'button' ? s.button.position : at === 'head' ? inFrontOfEyes(frame, 0.45) : null;
        if (when === 'every-frame') {
          ctx.audio.play('chime', { position, loop: true });
          continue;
        }
        s.voice?.stop(); // one chime at a time: a new press restarts it
        s.voice = ctx.audio.play('chime', { position, duration: CHIME_SECONDS });
      }
    },
  };
}

/** The button 0.38 m ahead of the eyes and 28 cm below them, its face (+Z) turned to the user. */
function placeButton(frame, ctx) {
  const head = frame.viewerPose.transform;
  const front = xr.flatForward(head);
  const button = {
    position: xr.add(xr.vec(head.position), xr.add(xr.scale(front, 0.38), [0, -0.28, 0])),
    normal: xr.scale(front, -1),
    rotation: xr.facing(xr.scale(front, -1)),
  };
  ctx.tag('button', 'chime-button', () => ({ position: button.position, rotation: button.rotation }));
  return button;
}

/** How far the fingertip is behind the button's face, within its radius (else -Infinity). */
function depthBehindFace(tip, button) {
  const d = xr.sub(tip, button.position);
  const along = xr.dot(d, button.normal);
  return xr.length(xr.sub(d, xr.scale(button.normal, along))) <= RADIUS ? -along : -Infinity;
}

/** A point `distance` ahead along the gaze. */
function inFrontOfEyes(frame, distance) {
  const head = frame.viewerPose.transform;
  return xr.add(xr.vec(head.position), xr.scale(xr.forward(head), distance));
}
