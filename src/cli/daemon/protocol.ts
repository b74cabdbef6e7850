/**
 * The daemon's wire format (`engram daemon`): one Unix socket connection per command, carrying
 * frames of a type byte, a 32-bit big-endian length and a payload. The client sends the request
 * (`q`, JSON), then its standard input when the server asks for it (`i` bytes, `c` at its end);
 * the server sends standard output (`o`) and error (`e`) as the command writes them, `r` when the
 * command first reads its input, and `x` (JSON: the exit code) at the end — or `n` (JSON: why)
 * before anything ran, when it will not run this request (another build, shutting down).
 * Light: node built-ins only, loaded before the CLI.
 */

/** Bumped when the frames or the request change; a client and a server of different protocols never talk. */
export const PROTOCOL = 1;

export type FrameType = 'q' | 'i' | 'c' | 'o' | 'e' | 'r' | 'x' | 'n';

/** What a client asks the daemon to run: the command line, and the shell it comes from. */
export interface DaemonRequest {
  protocol: number;
  /** The client's build: a server of another build does not run its commands. */
  build: string;
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether each stream is a terminal, and its width, as the command would see them. */
  tty: { stdin: boolean; stdout: boolean; stderr: boolean };
  columns: { stdout?: number; stderr?: number };
  /** The client's file mode mask: files the command creates get the modes they would get there. */
  umask: number;
}

/** One frame, ready to write. */
export function frame(type: FrameType, payload: Uint8Array | string = ''): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** The largest frame a peer accepts (a request with a large environment is far below it). */
const MAX_FRAME = 64 * 1024 * 1024;

/**
 * A reader of frames from a byte stream: `push` each chunk read; `onFrame` sees every whole frame
 * in order. A frame over {@link MAX_FRAME} bytes is an error (the peer is not engram).
 */
export function frameReader(onFrame: (type: FrameType, payload: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) throw new Error(`frame of ${length} bytes`);
      if (pending.length < 5 + length) return;
      const type = pending.toString('latin1', 0, 1) as FrameType;
      const payload = pending.subarray(5, 5 + length);
      pending = pending.subarray(5 + length);
      onFrame(type, payload);
    }
  };
}

/**
 * Reads the frames `socket` receives with `onFrame`; a peer that sends what is not a frame (or a
 * frame `onFrame` cannot read) is cut off.
 */
export function readFrames(
  socket: { on(event: 'data', listener: (chunk: Buffer) => void): unknown; destroy(): void },
  onFrame: (type: FrameType, payload: Buffer) => void,
): void {
  const read = frameReader(onFrame);
  socket.on('data', (chunk) => {
    try {
      read(chunk);
    } catch {
      socket.destroy();
    }
  });
}
