// Spawns within reach and near the gaze; follows lazily.
import { ergonomicMenu } from './menu.mjs';
export const { setup, frame } = ergonomicMenu();
