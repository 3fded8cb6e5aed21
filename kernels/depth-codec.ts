/**
 * Lossless packing of a uint16 depth image for the stream: each pixel minus its left neighbour (the first
 * pixel of a row minus the one above), modulo 2^16, then the low bytes of all pixels followed by the high
 * bytes. Smooth surfaces become runs of small numbers and zero high bytes, which deflate compresses well.
 */

/** Packs `pixels` (width × height) into `out` (2 × width × height bytes). */
export function packDepthImage(pixels: Uint16Array, width: number, height: number, out: Uint8Array): void {
  const n = width * height;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      const previous = col > 0 ? pixels[i - 1] : row > 0 ? pixels[i - width] : 0;
      const delta = (pixels[i] - previous) & 0xffff;
      out[i] = delta & 0xff;
      out[n + i] = delta >>> 8;
    }
  }
}

/** Unpacks what {@link packDepthImage} wrote. */
export function unpackDepthImage(bytes: Uint8Array, width: number, height: number, out: Uint16Array): void {
  const n = width * height;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      const previous = col > 0 ? out[i - 1] : row > 0 ? out[i - width] : 0;
      out[i] = (previous + (bytes[i] | (bytes[n + i] << 8))) & 0xffff;
    }
  }
}
