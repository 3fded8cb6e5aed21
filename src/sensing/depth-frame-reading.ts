/**
 * One depth frame's reading as apps get it: read whole (`whole`) or a pixel at a time (`pixel`), and valid
 * for as long as the app keeps it, even after the sensor has taken later frames.
 *
 * While its frame is the sensor's latest, it asks the sensor, which renders and measures only what is read
 * (an app that samples one pixel a frame costs a 3×3 window, not a whole image). Before the sensor's scene
 * changes, the sensor hands it either the finished image or a copy of the scene the frame saw
 * (`DepthSensor.release`); from then on it answers from that, through the sensor's one sensor for earlier
 * frames, and keeps what it read. Every value is the one the whole image has at that pixel, however and
 * whenever it is read.
 */
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import type { DepthPixelSource } from './depth-information.js';

/** What fixes a depth frame that is no longer the sensor's latest: its number, tick, camera pose and scene. */
export interface PastDepthFrame {
  readonly frameIndex: number;
  readonly tick: number;
  /** The camera's world pose: position, quaternion. */
  readonly pose: Float64Array;
  /** A copy of the scene as the frame saw it. */
  readonly geometry: SceneGeometry;
}

/** What a reading asks of its depth sensor (`DepthSensor`, named here without importing it: it imports this file). */
export interface DepthFrameSensor {
  readonly model: { readonly width: number; readonly height: number };
  /** The latest frame's whole reading, and one pixel of it. */
  readonly reading: Uint16Array;
  readingAt(index: number): number;
  /** A sensor holding an earlier frame. */
  pastSensor(frame: PastDepthFrame): DepthFrameSensor;
}

/** A depth frame's reading, detachable from its sensor. */
export class DepthFrameReading implements DepthPixelSource {
  /** The whole image, once known. */
  private image: Uint16Array | null = null;
  /** After the sensor moved on without the whole image: the frame, and the pixels read so far. */
  private past: PastDepthFrame | null = null;
  private values: Uint16Array | null = null;
  private known: Uint8Array | null = null;

  constructor(
    private readonly sensor: DepthFrameSensor,
    readonly frameIndex: number,
  ) {}

  pixel(index: number): number {
    if (this.image) return this.image[index];
    if (!this.past) return this.sensor.readingAt(index);
    if (!this.known) {
      // Made only when an earlier frame is read (most readings are dropped once their frame has passed).
      const pixels = this.sensor.model.width * this.sensor.model.height;
      this.values = new Uint16Array(pixels);
      this.known = new Uint8Array(pixels);
    }
    if (this.known[index] === 0) {
      this.values![index] = this.sensor.pastSensor(this.past).readingAt(index);
      this.known[index] = 1;
    }
    return this.values![index];
  }

  whole(): Uint16Array {
    if (this.image) return this.image;
    if (!this.past) return this.sensor.reading;
    this.keepImage(this.sensor.pastSensor(this.past).reading.slice());
    return this.image!;
  }

  /** The sensor is moving on, having measured this whole frame: answer from its image (a copy). */
  keepImage(image: Uint16Array): void {
    this.image = image;
    this.past = null;
    this.values = null;
    this.known = null;
  }

  /** The sensor is moving on: answer from this copy of the frame's scene. */
  keepScene(frame: PastDepthFrame): void {
    this.past = frame;
  }
}
