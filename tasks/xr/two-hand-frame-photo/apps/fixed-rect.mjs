// Mistake: captures a fixed rectangle in the middle of the view, whatever the hands frame.
import { framePhoto } from './photo.mjs';
export const { setup, frame } = framePhoto({ fixedRect: true });
