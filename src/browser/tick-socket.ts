/**
 * The tick channel of one page: a WebSocket on the loopback address that the shim opens when it installs
 * (`ShimConfig.bridge`), so a tick costs one message each way between Node and the page's renderer, with
 * neither Playwright's client nor Chromium's browser process on the way (docs/BROWSER.md, "Transport").
 *
 * - Listens on 127.0.0.1 at a port the system picks, for one page. The upgrade must name the page's secret
 *   path (`/<token>`, 128 random bits, given to the shim in its configuration and deleted from the window
 *   before any page script runs), be addressed to `127.0.0.1:<port>` and come from the page's origin;
 *   anything else is refused with 403/404.
 * - One connection at a time: a second one is refused while the first is open (a page script that somehow
 *   learnt the token still cannot take over or add a channel).
 * - The host speaks first: a request is one text message (the `TickInput[]` JSON), its answer the page's
 *   next text message. The host may send the next requests before the answers come (a pipelined session):
 *   the page answers in order, so answers go to requests first in, first out. A message the host did not
 *   ask for closes the connection.
 *
 * Only text frames, client frames masked (RFC 6455); no extensions (none is accepted in the handshake).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** Largest message either way: a batch of ticks or a 4096² layer image in base64 fits. */
const MAX_MESSAGE = 128 * 1024 * 1024;

/** Raised when the page's end of the channel goes away while the host waits for an answer. */
export class TickSocketClosedError extends Error {
  constructor() {
    super("the page's tick channel closed during a tick (the page navigated, or its renderer went away)");
    this.name = 'TickSocketClosedError';
  }
}

export class TickSocket {
  private socket: Socket | null = null;
  /** Requests waiting for their answers, oldest first. */
  private pending: { resolve(text: string): void; reject(error: Error): void }[] = [];
  /** Set once a connection has opened; `onConnect` waiters. */
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    /** `ws://127.0.0.1:<port>/<token>`: what the shim connects to. */
    readonly url: string,
  ) {}

  /** Starts listening for the connection of the page at `origin` (`http://127.0.0.1:<port>`: its WebSocket's Origin). */
  static async listen(origin: string): Promise<TickSocket> {
    const token = randomBytes(16).toString('hex');
    const server = createServer((_request, response) => {
      response.writeHead(404).end();
    });
    await new Promise<void>((done, fail) => server.once('error', fail).listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const channel = new TickSocket(server, `ws://127.0.0.1:${port}/${token}`);
    server.on('upgrade', (request, socket: Socket) => {
      const key = request.headers['sec-websocket-key'];
      const refuse = (status: number) => socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\n\r\n`);
      if (request.url !== `/${token}` || typeof key !== 'string') return refuse(404);
      if (request.headers.host !== `127.0.0.1:${port}` || request.headers.origin !== origin || channel.socket) return refuse(403);
      const accept = createHash('sha1').update(key + WEBSOCKET_GUID).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      channel.adopt(socket);
    });
    return channel;
  }

  /** Whether the page's end is connected now. */
  get connected(): boolean {
    return this.socket !== null;
  }

  /** Resolves when the page has connected, or false after `ms`. */
  async waitForConnection(ms: number): Promise<boolean> {
    if (this.socket) return true;
    let timer: NodeJS.Timeout | undefined;
    const connected = await Promise.race([new Promise<true>((done) => this.waiters.push(() => done(true))), new Promise<false>((done) => (timer = setTimeout(() => done(false), ms)))]);
    clearTimeout(timer);
    return connected;
  }

  /** Sends one message and resolves with the page's answer. Rejects if the connection goes away first. */
  request(text: string): Promise<string> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new TickSocketClosedError());
    return new Promise<string>((resolve, reject) => {
      this.pending.push({ resolve, reject });
      socket.write(frame(Buffer.from(text, 'utf8')));
    });
  }

  /** Stops listening and drops the connection (without waiting for refused clients to hang up). */
  async close(): Promise<void> {
    this.drop();
    this.server.close();
  }

  private adopt(socket: Socket): void {
    this.socket = socket;
    socket.setNoDelay(true);
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const message of reader.push(chunk)) {
          if (message.op === 0x9) socket.write(frame(message.payload, 0xa)); // ping: pong
          else if (message.op === 0x8) return this.drop(socket);
          else if (message.op === 0x1 && this.pending.length > 0) {
            this.pending.shift()!.resolve(message.payload.toString('utf8'));
          } else if (message.op !== 0xa) return this.drop(socket); // unasked for, or binary
        }
      } catch {
        this.drop(socket); // a malformed frame
      }
    });
    // The HTTP server's sockets are half-open by default: the page's end closing is 'end', not yet 'close'.
    socket.on('end', () => this.drop(socket));
    socket.on('close', () => this.drop(socket));
    socket.on('error', () => this.drop(socket));
    for (const wake of this.waiters.splice(0)) wake();
  }

  private drop(socket = this.socket): void {
    if (!socket || socket !== this.socket) {
      socket?.destroy();
      return;
    }
    this.socket = null;
    socket.destroy();
    for (const pending of this.pending.splice(0)) pending.reject(new TickSocketClosedError());
  }
}

/** One unmasked, unfragmented frame from the host (text unless `op` says otherwise). */
function frame(payload: Buffer, op = 0x1): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | op, n]) : n < 65536 ? Buffer.from([0x80 | op, 126, n >> 8, n & 0xff]) : Buffer.alloc(10);
  if (n >= 65536) {
    head[0] = 0x80 | op;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Reassembles the page's frames (masked, possibly fragmented) into messages. */
class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentOp = 0;
  private fragmentBytes = 0;

  push(chunk: Buffer): { op: number; payload: Buffer }[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages: { op: number; payload: Buffer }[] = [];
    for (;;) {
      const b = this.buffer;
      if (b.length < 2) break;
      const fin = (b[0] & 0x80) !== 0;
      const op = b[0] & 0x0f;
      if ((b[0] & 0x70) !== 0 || (b[1] & 0x80) === 0) throw new Error('tick socket: reserved bits set or an unmasked client frame');
      let length = b[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (b.length < 4) break;
        length = b.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (b.length < 10) break;
        const big = b.readBigUInt64BE(2);
        if (big > BigInt(MAX_MESSAGE)) throw new Error('tick socket: frame too large');
        length = Number(big);
        offset = 10;
      }
      if (length > MAX_MESSAGE) throw new Error('tick socket: frame too large');
      if (b.length < offset + 4 + length) break;
      const mask = b.subarray(offset, offset + 4);
      const payload = Buffer.from(b.subarray(offset + 4, offset + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      this.buffer = b.subarray(offset + 4 + length);
      if (op >= 0x8) {
        messages.push({ op, payload }); // control frames are never fragmented
        continue;
      }
      if (op !== 0) {
        this.fragmentOp = op;
        this.fragments = [];
        this.fragmentBytes = 0;
      }
      this.fragments.push(payload);
      this.fragmentBytes += payload.length;
      if (this.fragmentBytes > MAX_MESSAGE) throw new Error('tick socket: message too large');
      if (fin) {
        messages.push({ op: this.fragmentOp, payload: this.fragments.length === 1 ? this.fragments[0] : Buffer.concat(this.fragments) });
        this.fragments = [];
        this.fragmentBytes = 0;
      }
    }
    return messages;
  }
}
