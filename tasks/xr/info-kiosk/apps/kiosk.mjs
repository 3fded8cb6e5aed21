// The information kiosk and its design flaws. It shows an info panel a metre ahead, a start button within
// reach, a badge on the table (found with a hit test on the detected planes) and a menu on the palm the user
// shows; each press of the button counts, and answers at once: the button dips 4 mm and clicks. Every option
// is one realistic design mistake, and each leaves the kiosk working: only its design suffers.
import { xr } from 'xrsim';

const PANEL_SIZE = [0.8, 0.45, 0.02];
const PANEL_TEXT = 0.018;
const BUTTON_SIZE = [0.05, 0.05, 0.015];
const BADGE_SIZE = [0.1, 0.02, 0.06];
const MENU_SIZE = [0.08, 0.12, 0.01];
const MENU_TEXT = 0.008;
/** How far the button dips when pressed, and for how long (seconds). */
const DIP = 0.004;
const DIP_SECONDS = 0.2;

/**
 * Options (the defaults are the reference):
 * - panelDistance, panelYawDeg (from where the user looks at start), panelScale (its size and text, and how far
 *   below the eyes it sits, scaled together), textHeight, swayMetres (it drifts side to side);
 * - buttonForward: how far ahead of the eyes the button floats;
 * - badgeLift: the badge's centre above the table (negative: sunk into it);
 * - menuFollowRate: how fast the palm menu catches up with the palm (1/s; Infinity: fixed to it);
 * - feedback: 'at-once', 'late' (half a second after the press) or 'none'.
 */
export function kiosk(options = {}) {
  const o = { panelDistance: 0.85, panelYawDeg: 0, panelScale: 1, textHeight: PANEL_TEXT, swayMetres: 0, buttonForward: 0.42, badgeLift: 0.01, menuFollowRate: Infinity, feedback: 'at-once', ...options };
  const k = o.panelScale;
  return {
    setup(ctx) {
      const s = ctx.state;
      s.pressed = new Map();
      s.dipUntil = -1;
      s.due = [];
      ctx.tag('panel', 'info-panel', () => s.panel && panelPose(s, ctx.time), { size: PANEL_SIZE.map((v) => v * k), text: o.textHeight * k });
      ctx.tag('start-button', 'start', () => s.button && { position: s.dipUntil >= ctx.time ? xr.add(s.button.position, xr.scale(s.button.normal, -DIP)) : s.button.position, rotation: s.button.rotation }, { size: BUTTON_SIZE });
      ctx.tag('badge', 'kiosk-badge', () => s.badge, { size: BADGE_SIZE });
      ctx.tag('hand-menu', 'palm-menu', () => s.menu && { position: s.menu, rotation: s.menuRotation }, { size: MENU_SIZE, text: MENU_TEXT });
    },
    frame(frame, ctx) {
      const s = ctx.state;
      const head = frame.viewerPose.transform;
      const eyes = xr.vec(head.position);
      if (!s.panel) place(s, head);
      if (!s.badge) s.badge = findBadgePlace(ctx, head, o.badgeLift);
      pressButton(frame, ctx, o.feedback);
      followPalm(frame, ctx, eyes, o.menuFollowRate);
    },
  };

  function place(s, head) {
    const eyes = xr.vec(head.position);
    const front = xr.flatForward(head);
    const yaw = (o.panelYawDeg * Math.PI) / 180;
    // Turned about +Y by the yaw: positive to the left.
    const dir = [front[0] * Math.cos(yaw) + front[2] * Math.sin(yaw), 0, -front[0] * Math.sin(yaw) + front[2] * Math.cos(yaw)];
    s.panel = { centre: xr.add(eyes, [dir[0] * o.panelDistance, -0.15 * o.panelDistance, dir[2] * o.panelDistance]), right: [-dir[2], 0, dir[0]], rotation: xr.facing(xr.scale(dir, -1)) };
    s.button = { position: xr.add(eyes, xr.add(xr.scale(front, o.buttonForward), [0, -0.28, 0])), normal: xr.scale(front, -1), rotation: xr.facing(xr.scale(front, -1)) };
  }

  function panelPose(s, time) {
    const sway = o.swayMetres * Math.sin(2 * Math.PI * 0.4 * time);
    return { position: xr.add(s.panel.centre, xr.scale(s.panel.right, sway)), rotation: s.panel.rotation };
  }
}

/** The badge on the table: a hit test straight down 1.1 m ahead and 0.2 m to the right, onto a detected plane at table height. */
function findBadgePlace(ctx, head, lift) {
  const front = xr.flatForward(head);
  const origin = xr.add(xr.vec(head.position), xr.add(xr.scale(front, 1.1), [-front[2] * 0.2, 0, front[0] * 0.2]));
  const hit = ctx.requestHitTest(origin, [0, -1, 0]).find((h) => h.position[1] > 0.4 && h.position[1] < 1.2);
  return hit ? [hit.position[0], hit.position[1] + lift, hit.position[2]] : null;
}

/** A press: the fingertip 8 mm behind the button's face, released back within 3 mm; then the feedback. */
function pressButton(frame, ctx, feedback) {
  const s = ctx.state;
  for (const due of s.due.filter((t) => t <= frame.time)) answer(ctx, frame.time);
  s.due = s.due.filter((t) => t > frame.time);
  if (!s.button) return;
  for (const source of frame.inputSources) {
    const tip = xr.joint(source, 'index-finger-tip');
    if (!tip) continue;
    const depth = xr.pressDepth(tip, s.button.position, s.button.normal, 0.03);
    const was = s.pressed.get(source.handedness) ?? false;
    if (!was && depth >= 0.008) {
      s.pressed.set(source.handedness, true);
      ctx.emit('start-pressed', { hand: source.handedness });
      if (feedback === 'at-once') answer(ctx, frame.time);
      else if (feedback === 'late') s.due.push(frame.time + 0.5);
    } else if (was && depth < 0.003) s.pressed.set(source.handedness, false);
  }
}

/** The press answered: the button dips and clicks where it is. */
function answer(ctx, time) {
  ctx.state.dipUntil = time + DIP_SECONDS;
  ctx.audio.play('click', { position: ctx.state.button.position, duration: 0.15 });
}

/** The menu on the palm the user shows (facing up or toward the eyes), fixed to it or catching up with it. */
function followPalm(frame, ctx, eyes, rate) {
  const s = ctx.state;
  let palm = null;
  for (const source of frame.inputSources) {
    const p = palmOf(source);
    if (p && xr.dot(p.normal, xr.normalize(xr.sub(eyes, p.centre))) > 0.5) palm = p;
  }
  if (!palm) {
    s.menu = null;
    return;
  }
  const target = xr.add(palm.centre, xr.scale(palm.normal, 0.06));
  s.menu = s.menu && Number.isFinite(rate) ? xr.lerp(s.menu, target, Math.min(1, rate * ctx.dt)) : target;
  s.menuRotation = xr.facing(palm.normal);
}

/** Palm centre (halfway along the middle metacarpal) and its outward normal (−Y of the joints). */
function palmOf(source) {
  const hand = source.hand;
  const wrist = hand?.get('wrist');
  const knuckle = hand?.get('middle-finger-phalanx-proximal');
  const metacarpal = hand?.get('middle-finger-metacarpal');
  if (!wrist || !knuckle || !metacarpal) return null;
  const centre = xr.lerp(xr.vec(wrist.transform.position), xr.vec(knuckle.transform.position), 0.5);
  return { centre, normal: xr.scale(xr.axis(metacarpal.transform, 'y'), -1) };
}
