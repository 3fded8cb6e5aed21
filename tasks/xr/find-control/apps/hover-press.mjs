// Presses a button when the fingertip enters a 2 cm deep volume in front of its face: a finger hovering
// over a button presses it.
import { controlPanel } from './control-panel.mjs';
export const { setup, frame } = controlPanel({ enterDepth: -0.02, exitDepth: -0.025 });
