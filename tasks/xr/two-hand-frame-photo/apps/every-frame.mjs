// Mistake: captures on every frame the gesture is held.
import { framePhoto } from './photo.mjs';
export const { setup, frame } = framePhoto({ once: false });
