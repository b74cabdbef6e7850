/**
 * Standard output and error for the `engram` executable. Piped or redirected to a file, node would
 * make a stream object for each on first use (a socket for a pipe: `node:net` and `node:stream`
 * set up, milliseconds of a short command). Here a write goes straight to the file descriptor
 * instead, as node's own pipes and files on Linux do anyway (synchronously). A terminal gets node's
 * own stream. Anything else asked of the stream (`on`, `pipe`, a readline on stderr) makes
 * node's stream then, and every write after that goes through it, so nothing is reordered.
 */
import { fstatSync, statSync, writeSync } from 'node:fs';

type Std = NodeJS.WriteStream;
type Callback = (error?: Error | null) => void;

/** Waits `ms` without a timer (the write is synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Writes all of `bytes` to `fd` with `write` (`fs.writeSync`), however few bytes each call takes,
 * waiting out a full pipe that another process left non-blocking (EAGAIN).
 */
export function writeAll(fd: number, bytes: Uint8Array, write: typeof writeSync = writeSync): void {
  let done = 0;
  while (done < bytes.length) {
    try {
      done += write(fd, bytes, done, bytes.length - done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      pause(1);
    }
  }
}

/**
 * Whether `fd` is a pipe, a socket, a file or `/dev/null`: written to directly. A terminal and any
 * other device are left to node (without `node:tty`, which loads the streams: hence no `isatty`).
 */
function plain(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isFile() || stat.isSocket()) return true;
    return stat.isCharacterDevice() && stat.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/**
 * Standard output (fd 1) or error (fd 2) as a stream: `real` gives node's. A write that fails
 * (EPIPE: the reader went away; EBADF, ENOSPC…) goes to `handled` first: true when it dealt with it
 * (stderr drops a line it cannot write; on EPIPE stdout ends the process, as with node's stream),
 * false to fail the write.
 */
export function stdStream(fd: 1 | 2, real: () => Std, handled: (error: NodeJS.ErrnoException) => boolean): Std {
  if (!plain(fd)) return real();
  let stream: Std | undefined;
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, callback?: Callback): boolean => {
    if (stream !== undefined) return stream.write(chunk, encoding as BufferEncoding, callback);
    const done = typeof encoding === 'function' ? encoding : callback;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
    let failed: Error | undefined;
    try {
      writeAll(fd, bytes);
    } catch (error) {
      if (!handled(error as NodeJS.ErrnoException)) failed = error as Error;
    }
    if (done !== undefined) process.nextTick(done, failed ?? null);
    else if (failed !== undefined) throw failed;
    return true;
  };
  return new Proxy({} as Std, {
    get(_, key) {
      if (stream === undefined) {
        if (key === 'write') return write;
        if (key === 'isTTY') return false;
        if (key === 'columns' || key === 'rows') return undefined;
        stream = real();
      }
      const value = Reflect.get(stream, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(stream) : value;
    },
    has: (_, key) => key in (stream ??= real()),
  });
}
