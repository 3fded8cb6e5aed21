// Mistake: a fifth of a second of calm counts as holding the frame, so the hands slowing down on their way
// into place take the photo.
import { framePhoto } from './photo.mjs';
export const { setup, frame } = framePhoto({ steadySeconds: 0.2 });
