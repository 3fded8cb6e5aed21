// Four buttons in a seeded layout, each tagged where it is; presses by penetration with hysteresis.
import { controlPanel } from './control-panel.mjs';
export const { setup, frame } = controlPanel();
