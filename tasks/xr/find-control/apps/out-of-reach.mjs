// Places the panel at a comfortable reading distance (0.85 m), out of arm's reach.
import { controlPanel } from './control-panel.mjs';
export const { setup, frame } = controlPanel({ distance: 0.85 });
