// Captures the rectangle between the index tips, once per steady gesture.
import { framePhoto } from './photo.mjs';
export const { setup, frame } = framePhoto();
