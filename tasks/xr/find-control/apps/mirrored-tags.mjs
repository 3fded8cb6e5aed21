// Tags each button at the mirror image of its slot: the slot offset along the panel's left, not its right.
import { controlPanel } from './control-panel.mjs';
export const { setup, frame } = controlPanel({ mirroredTags: true });
