/** The MCP server over stdin/stdout: one connection, until stdin closes. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createConnectionServer, drain, type ServerState } from './protocol.js';

/** Serves over stdin/stdout until stdin closes. Nothing but protocol is written to stdout. */
export async function runStdio(state: ServerState): Promise<void> {
  const server = createConnectionServer(state, 'stdio');
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  // Input ended: let the calls already read finish and their answers go out, then stop.
  await drain(state);
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
}
