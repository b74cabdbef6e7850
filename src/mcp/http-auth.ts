/**
 * Who may call the Streamable HTTP server, and from where: bearer tokens compared by digest in
 * constant time, loopback detection, and the error replies sent before a request reaches MCP.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EngramError } from '../errors.js';

/** Whether a host name or address is this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The SHA-256 digest of a token: the server keeps and compares only this. */
export const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The token of an `Authorization: Bearer TOKEN` header; the scheme is case-insensitive (RFC 9110). */
function bearerToken(header: string | undefined): string | undefined {
  return /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
}

/**
 * Who is calling, for the limits: the digest of the bearer token when the server has one (the
 * token itself is never kept), else the remote address. Undefined when the token is wrong.
 */
export function clientOf(request: IncomingMessage, expected: Buffer | undefined): string | undefined {
  if (expected === undefined) return `addr:${request.socket.remoteAddress ?? 'unknown'}`;
  const given = bearerToken(request.headers.authorization);
  if (given === undefined) return undefined;
  const hashed = digest(given);
  return timingSafeEqual(hashed, expected) ? `token:${hashed.subarray(0, 8).toString('hex')}` : undefined;
}

/**
 * The Host headers a loopback server accepts (so a web page cannot reach it by DNS rebinding):
 * the bound host and every loopback name, on the bound port.
 */
export function loopbackHosts(host: string, port: number): string[] {
  return [...new Set([host, '127.0.0.1', 'localhost', '[::1]'])].map((h) => `${h}:${port}`);
}

/** An error as the JSON body of an HTTP reply. */
export function reply(
  response: ServerResponse,
  status: number,
  error: EngramError,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(error.toJSON()));
}
