/**
 * The page's tick channel, host side (`src/browser/tick-socket.ts`), driven by a hand-written WebSocket
 * client: loopback only, the secret path and the exact Host required, one connection at a time, requests
 * answered in order (fragmented answers reassembled), anything unasked for dropped, a closed channel
 * failing the waiting request instead of hanging it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { TickSocket, TickSocketClosedError } from '../src/browser/tick-socket.js';

const ORIGIN = 'http://127.0.0.1:5555';

/** A minimal client: the handshake's status code, then masked frames out and unmasked frames in. */
class Client {
  private buffer = Buffer.alloc(0);
  private waiting: ((b: Buffer) => void)[] = [];
  readonly closed: Promise<void>;
  private constructor(readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.waiting.splice(0).forEach((w) => w(this.buffer));
    });
    this.closed = new Promise((done) => socket.on('close', () => done()));
  }

  static async open(port: number, path: string, host = `127.0.0.1:${port}`, origin = ORIGIN): Promise<{ client: Client; status: number }> {
    const socket = connect(port, '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    const client = new Client(socket);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`);
    const head = await client.until((b) => b.indexOf('\r\n\r\n') >= 0);
    const end = head.indexOf('\r\n\r\n') + 4;
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head.subarray(0, end).toString())?.[1]);
    if (status === 101) expect(head.subarray(0, end).toString()).toContain('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    client.buffer = client.buffer.subarray(end);
    return { client, status };
  }

  /** Sends `text` as masked frames of at most `chunk` bytes (fragmented beyond that). */
  send(text: string, chunk = Infinity, op = 0x1): void {
    const payload = Buffer.from(text);
    for (let at = 0; at === 0 || at < payload.length; at += chunk) {
      const part = payload.subarray(at, Math.min(payload.length, at + chunk));
      const fin = at + chunk >= payload.length ? 0x80 : 0;
      const mask = Buffer.from([1, 2, 3, 4]);
      const head = part.length < 126 ? Buffer.from([fin | (at === 0 ? op : 0), 0x80 | part.length]) : Buffer.from([fin | (at === 0 ? op : 0), 0x80 | 126, part.length >> 8, part.length & 0xff]);
      this.socket.write(Buffer.concat([head, mask, Buffer.from(part.map((b, i) => b ^ mask[i & 3]))]));
    }
  }

  /** The next text message from the host. */
  async receive(): Promise<string> {
    const b = await this.until((x) => x.length >= 2 && x.length >= 2 + (x[1] < 126 ? x[1] : x.readUInt16BE(2) + 2));
    expect(b[0]).toBe(0x81);
    const length = b[1] < 126 ? b[1] : b.readUInt16BE(2);
    const offset = b[1] < 126 ? 2 : 4;
    this.buffer = b.subarray(offset + length);
    return b.subarray(offset, offset + length).toString();
  }

  private until(done: (b: Buffer) => boolean): Promise<Buffer> {
    if (done(this.buffer)) return Promise.resolve(this.buffer);
    return new Promise((resolve) => {
      const check = (b: Buffer) => (done(b) ? resolve(b) : this.waiting.push(check));
      this.waiting.push(check);
    });
  }
}

describe('the tick socket (host side)', () => {
  let channel: TickSocket | null = null;
  afterEach(async () => {
    await channel?.close();
    channel = null;
  });
  const open = async () => {
    channel = await TickSocket.listen(ORIGIN);
    const url = new URL(channel.url);
    return { channel, port: Number(url.port), path: url.pathname };
  };

  it('listens on the loopback address at a secret path, and wants its own Host and the page\'s Origin', async () => {
    const { channel, port, path } = await open();
    expect(channel.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/);
    expect((await Client.open(port, '/')).status).toBe(404);
    expect((await Client.open(port, `${path}x`)).status).toBe(404);
    // DNS rebinding: the right path under another name.
    expect((await Client.open(port, path, `evil.example:${port}`)).status).toBe(403);
    // Another page (another origin, or the empty document a tab starts with).
    expect((await Client.open(port, path, undefined, 'http://127.0.0.1:5556')).status).toBe(403);
    expect((await Client.open(port, path, undefined, 'null')).status).toBe(403);
    expect(channel.connected).toBe(false);
    // A second listener gets another secret.
    const other = await TickSocket.listen(ORIGIN);
    expect(new URL(other.url).pathname).not.toBe(path);
    await other.close();
  });

  it('answers requests in order, reassembles fragmented answers, and refuses a second connection', async () => {
    const { channel, port, path } = await open();
    const { client, status } = await Client.open(port, path);
    expect(status).toBe(101);
    expect(await channel.waitForConnection(5_000)).toBe(true);
    expect((await Client.open(port, path)).status).toBe(403);
    const long = JSON.stringify({ o: 'x'.repeat(70_000) });
    for (const [question, answer, chunk] of [['[1]', '{"o":[1]}', Infinity], ['[2]', long, 1000]] as const) {
      const reply = channel.request(question);
      expect(await client.receive()).toBe(question);
      client.send(answer, chunk);
      expect(await reply).toBe(answer);
    }
  });

  it('drops a page that speaks unasked, and a waiting request fails when the page goes away', async () => {
    const { channel, port, path } = await open();
    const first = await Client.open(port, path);
    await channel.waitForConnection(5_000);
    first.client.send('{"o":[]}');
    await first.client.closed;
    expect(channel.connected).toBe(false);
    await expect(channel.request('[1]')).rejects.toBeInstanceOf(TickSocketClosedError);
    // Once the first connection is gone, the page's next document may connect again.
    const second = await Client.open(port, path);
    expect(second.status).toBe(101);
    await channel.waitForConnection(5_000);
    const reply = channel.request('[1]');
    await second.client.receive();
    second.client.socket.destroy();
    await expect(reply).rejects.toBeInstanceOf(TickSocketClosedError);
  });
});
