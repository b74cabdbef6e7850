/**
 * Session transcripts for the capture tests, generated (nothing large is committed), each written
 * to its client's documented structure: Claude Code session JSONL, a Codex rollout, an `opencode
 * export` document and its messages one per line.
 */

export interface TurnSpec {
  request: string;
  answer: string;
  /** A tool output, which capture keeps by its size only. */
  output?: string;
  /** Text before the tool call (not the final answer). */
  preamble?: string;
  /** Reasoning text, which capture leaves out. */
  thinking?: string;
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 15, 9, 0, 0) + second * 1000).toISOString();
const jsonl = (entries: readonly unknown[]) => `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`;

/** `~/.claude/projects/<project>/<session-id>.jsonl`: entries linked by uuid / parentUuid. */
export function claudeCodeSession(sessionId: string, turns: readonly TurnSpec[], options: { sidechain?: string } = {}) {
  let n = 0;
  let parent: string | null = null;
  const entry = (type: string, extra: Record<string, unknown>) => {
    n++;
    const uuid = `${sessionId.slice(0, 8)}-uuid-${n}`;
    const e = { parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId, version: '2.1.3', gitBranch: 'main', type, uuid, timestamp: at(n), ...extra };
    parent = uuid;
    return e;
  };
  const entries: unknown[] = [
    { type: 'summary', summary: 'Working on the app', leafUuid: 'leaf-0' },
    { type: 'file-history-snapshot', messageId: 'snap-0', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false },
    entry('user', { isMeta: true, message: { role: 'user', content: '<local-command-caveat>Caveat: local commands below.</local-command-caveat>' } }),
  ];
  turns.forEach((turn, i) => {
    const id = `msg_${String(i).padStart(6, '0')}`;
    entries.push(entry('user', { message: { role: 'user', content: turn.request } }));
    const first: unknown[] = [
      ...(turn.thinking ? [{ type: 'thinking', thinking: turn.thinking, signature: 'sig' }] : []),
      ...(turn.preamble ? [{ type: 'text', text: turn.preamble }] : []),
    ];
    if (turn.output !== undefined) {
      const toolId = `toolu_${i}`;
      entries.push(entry('assistant', { requestId: `req_${i}a`, message: { id: `${id}a`, type: 'message', role: 'assistant', model: 'claude-sonnet', content: first, stop_reason: null } }));
      entries.push(entry('assistant', { requestId: `req_${i}a`, message: { id: `${id}a`, type: 'message', role: 'assistant', model: 'claude-sonnet', content: [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'npm test' } }], stop_reason: 'tool_use' } }));
      entries.push(entry('user', { message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: turn.output, is_error: false }] }, toolUseResult: { stdout: turn.output, stderr: '' } }));
    }
    if (options.sidechain !== undefined && i === 0) {
      entries.push({ ...entry('assistant', { message: { id: `${id}s`, role: 'assistant', content: [{ type: 'text', text: options.sidechain }] } }), isSidechain: true });
    }
    entries.push(entry('assistant', { requestId: `req_${i}b`, message: { id: `${id}b`, type: 'message', role: 'assistant', model: 'claude-sonnet', content: [{ type: 'text', text: turn.answer }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } } }));
    entries.push(entry('system', { subtype: 'stop_hook_summary', hookCount: 0, hookInfos: [] }));
  });
  return jsonl(entries);
}

/** `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`: `{timestamp, type, payload}` per line. */
export function codexRollout(sessionId: string, turns: readonly TurnSpec[]): string {
  let n = 0;
  const line = (type: string, payload: Record<string, unknown>) => ({ timestamp: at(++n), type, payload });
  const message = (role: string, kind: string, text: string) => ({ type: 'message', role, content: [{ type: kind, text }] });
  const entries: unknown[] = [
    line('session_meta', { id: sessionId, timestamp: at(0), cwd: '/home/dev/api', originator: 'codex_cli_rs', cli_version: '0.77.0', instructions: null, source: 'cli', model_provider: 'openai', git: { branch: 'main' } }),
    line('response_item', message('user', 'input_text', '<environment_context>\n  <cwd>/home/dev/api</cwd>\n</environment_context>')),
  ];
  turns.forEach((turn, i) => {
    entries.push(line('response_item', message('user', 'input_text', turn.request)));
    entries.push(line('event_msg', { type: 'user_message', message: turn.request, images: [] }));
    entries.push(line('turn_context', { cwd: '/home/dev/api', approval_policy: 'on-request', model: 'gpt-5-codex', effort: 'medium', summary: 'auto' }));
    entries.push(line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: turn.thinking ?? 'Thinking' }], content: null, encrypted_content: 'gAAAA' }));
    if (turn.output !== undefined) {
      entries.push(line('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'cargo test'] }), call_id: `call_${i}` }));
      entries.push(line('response_item', { type: 'function_call_output', call_id: `call_${i}`, output: JSON.stringify({ output: turn.output, metadata: { exit_code: 0 } }) }));
    }
    entries.push(line('response_item', message('assistant', 'output_text', turn.answer)));
    entries.push(line('event_msg', { type: 'agent_message', message: turn.answer }));
    entries.push(line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 100, output_tokens: 20 } } }));
  });
  return jsonl(entries);
}

function openCodeMessages(sessionId: string, turns: readonly TurnSpec[]) {
  const messages: unknown[] = [];
  turns.forEach((turn, i) => {
    const userId = `msg_u${String(i).padStart(4, '0')}`;
    const assistantId = `msg_a${String(i).padStart(4, '0')}`;
    const part = (messageID: string, k: number, body: Record<string, unknown>) => ({ id: `prt_${messageID}_${k}`, sessionID: sessionId, messageID, ...body });
    messages.push({
      info: { id: userId, sessionID: sessionId, role: 'user', time: { created: 1768467600000 + i * 60_000 }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet' } },
      parts: [
        part(userId, 1, { type: 'text', text: turn.request }),
        part(userId, 2, { type: 'text', synthetic: true, text: 'Called the Read tool with the following input: {"filePath":"/home/dev/web/README.md"}' }),
      ],
    });
    messages.push({
      info: { id: assistantId, sessionID: sessionId, role: 'assistant', parentID: userId, time: { created: 1768467600000 + i * 60_000 + 1000, completed: 1768467600000 + i * 60_000 + 9000 }, modelID: 'claude-sonnet', providerID: 'anthropic', mode: 'build', cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } },
      parts: [
        part(assistantId, 1, { type: 'step-start' }),
        part(assistantId, 2, { type: 'reasoning', text: turn.thinking ?? 'Reasoning', time: { start: 1, end: 2 } }),
        ...(turn.output === undefined ? [] : [part(assistantId, 3, { type: 'tool', callID: `call_${i}`, tool: 'bash', state: { status: 'completed', input: { command: 'bun test' }, output: turn.output, title: 'bun test', metadata: {}, time: { start: 1, end: 2 } } })]),
        part(assistantId, 4, { type: 'text', text: turn.answer }),
        part(assistantId, 5, { type: 'step-finish', reason: 'stop', cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } }),
      ],
    });
  });
  return messages;
}

/** What `opencode export SESSION_ID` prints: `{info, messages: [{info, parts}]}`, pretty-printed. */
export function openCodeExport(sessionId: string, turns: readonly TurnSpec[]): string {
  const info = { id: sessionId, projectID: 'proj_1', directory: '/home/dev/web', title: 'Web work', version: '1.0.0', time: { created: 1768467600000, updated: 1768471200000 } };
  return `${JSON.stringify({ info, messages: openCodeMessages(sessionId, turns), todos: [] }, null, 2)}\n`;
}

/** The same messages one per line (`opencode export ID | jq -c '.messages[]'`). */
export function openCodeLines(sessionId: string, turns: readonly TurnSpec[]): string {
  return jsonl(openCodeMessages(sessionId, turns));
}

/** `count` ordinary turns, each with a tool output carrying `marker` and the turn number. */
export function plainTurns(count: number, marker = 'TOOLOUTPUT'): TurnSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    request: `Please look at module m${i + 1} and tell me what its retry limit is.`,
    preamble: 'Let me read the module first.',
    thinking: `REASONINGMARK ${i + 1}`,
    output: `${marker}${i + 1} ${'x'.repeat(200)}`,
    answer: `Module m${i + 1} retries ${(i % 7) + 2} times before it gives up, with a backoff of ${(i % 5) + 1} seconds.`,
  }));
}
