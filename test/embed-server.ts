/**
 * Loopback embedding servers for tests: a real `node:http` server on 127.0.0.1 (port 0) that
 * records every request and answers as the test says, plus the answer shapes of the Ollama and
 * OpenAI-compatible protocols and a deterministic vector per text.
 */
import { type IncomingHttpHeaders, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (the raw text when it is not JSON). */
  body: unknown;
  /** When the request arrived (`performance.now()`). */
  at: number;
}

/** What to answer: a status, headers and a body (an object is sent as JSON), or no reply at all (the request hangs). */
export type Reply = { status?: number; headers?: Record<string, string>; body?: unknown } | 'hang';

export interface EmbedServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server answering each request with `reply(request, n)` (n counts from 0); stop it with
 * `close()` (hanging requests are cut).
 *
 * @example
 * const server = await startEmbedServer((req) => ({ body: ollamaAnswer(inputOf(req).map(vectorFor)) }));
 */
export async function startEmbedServer(reply: (request: SeenRequest, n: number) => Reply): Promise<EmbedServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch { /* the raw text is kept */ }
      const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: performance.now() };
      requests.push(seen);
      const answer = reply(seen, requests.length - 1);
      if (answer === 'hang') return;
      const payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

/** A loopback port nothing listens on (a server was opened there and closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The `input` texts of a request to either protocol. */
export function inputOf(request: SeenRequest): string[] {
  return (request.body as { input: string[] }).input;
}

/** A deterministic, not normalised vector of `dimensions` values for a text. */
export function vectorFor(text: string, dimensions = 3): number[] {
  const vector = [text.length, [...text].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 97, 1, 2, 3, 4, 5, 6];
  return vector.slice(0, dimensions);
}

/** Ollama's `/api/embed` answer. */
export function ollamaAnswer(vectors: unknown[]): unknown {
  return { model: 'm', embeddings: vectors };
}

/** An OpenAI embeddings answer, its entries in reverse order (clients must order by `index`). */
export function openAiAnswer(vectors: unknown[]): unknown {
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
  return { object: 'list', model: 'm', data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } };
}
