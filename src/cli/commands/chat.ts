/**
 * `engram chat --llm …`: an interactive session whose answers draw on memory, each question
 * answered by the recall–answer loop (`loop/`). On a terminal: a prompt with line editing and
 * history, `/help`, `/sources`, `/remember TEXT`, `/quit`; otherwise the questions are read line by
 * line from stdin (a failed answer then ends the run with its error). Answers go to stdout as they
 * come, everything else to stderr. An answer's memory proposals are stored through `pull` (the
 * write policy) only with `--store-proposals`; `/remember` writes through `put`. A missing store
 * is created by the first write only.
 */
import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { EngramError, toEngramError } from '../../errors.js';
import type { Engram } from '../../engram.js';
import type { LlmMode } from '../../llm/provider.js';
import type { LoopProtocol } from '../../loop/protocol.js';
import type { CliContext, CommandOutput } from '../context.js';
import { inCliTerms } from '../error-terms.js';
import { systemPrompt } from '../loop-run.js';
import { enumOption, exampleText, intOption, numberOption } from '../options.js';
import type { Runner } from '../runner.js';

interface ChatFlags {
  llm: string;
  llmMode?: LlmMode;
  protocol?: LoopProtocol;
  maxCalls?: number;
  budget?: number;
  timeout?: number;
  systemPrompt?: string;
  storeProposals?: boolean;
  scope?: string;
}

export function configure(command: Command, run: Runner): void {
  command
    .addOption(new Option('--llm <cmd>', 'the model: a shell command ("claude -p"), openai:MODEL[@BASE_URL] or ollama:MODEL[@URL]')
      .makeOptionMandatory())
    .addOption(enumOption(command, '--llm-mode <mode>', 'how a shell command gets the prompt (default stdin)', ['stdin', 'file']))
    .addOption(enumOption(command, '--protocol <protocol>', 'the model\'s reply format (default json)', ['json', 'regex', 'passive']))
    .addOption(intOption(command, '--max-calls <n>', 'model calls per question at most (default 3)', 1))
    .addOption(intOption(command, '--budget <tokens>', 'memory tokens per recall (default 2200, ENGRAM_BUDGET)', 1))
    .addOption(numberOption(command, '--timeout <seconds>', 'per model call (default 300)', 0.001, 86_400))
    .option('--system-prompt <text-or-file>', 'added after the protocol\'s system text: the text, or the content of the file it names')
    .option('--scope <scope>', 'recall only items of this scope, and store what the session stores there')
    .option('--store-proposals', 'store the memory proposals of each answer (through pull and the write policy)')
    .addHelpText(
      'after',
      [
        exampleText(
          'engram chat --llm "claude -p"',
          'engram chat --llm ollama:llama3 --store-proposals',
          'printf "How do we deploy?\\nWhich database?\\n" | engram chat --llm "claude -p" --max-calls 1',
        ),
        '\nIn a session: /help, /sources (the memories of the last answer), /remember TEXT, /quit.',
      ].join(''),
    )
    .action(run(chatCommand));
}

function remembered(result: Awaited<ReturnType<Engram['put']>>): string {
  const { item, policy } = result;
  if (result.deduplicated === true) return `already remembered as ${item.id} (reinforced)`;
  const held = policy.verdict === 'quarantine' ? ` (quarantined: ${policy.matches.map((m) => m.rule).join(', ')})` : '';
  return `remembered ${item.id}${held}`;
}

function pulled(result: Awaited<ReturnType<Engram['pull']>>): string {
  const ids = result.items.flatMap((entry) => (entry.id === undefined ? [] : [entry.id]));
  const held = result.quarantined > 0 ? `, ${result.quarantined} quarantined` : '';
  return `stored ${result.stored} proposal(s)${held}: ${ids.join(', ')}`;
}

async function chatCommand(ctx: CliContext, flags: ChatFlags): Promise<CommandOutput> {
  const [
    { createLlmProvider }, { loopAnswerer }, { createChatSession }, { chatLines, isInteractive },
    { parseProposals }, { splitQuoted },
  ] = await Promise.all([
    import('../../llm/create-provider.js'),
    import('../chat/loop-answerer.js'),
    import('../chat/session.js'),
    import('../chat/chat-lines.js'),
    import('../../ingest/proposals.js'),
    import('../chat/quoted-proposals.js'),
  ]);
  if (flags.llm.trim() === '') {
    throw new EngramError('PARAM_ERROR', 'chat needs a model: --llm', { hint: 'For example: engram chat --llm "claude -p"' });
  }
  const provider = createLlmProvider(flags.llm, { mode: flags.llmMode, env: ctx.settings.llmEnv() });
  const budget = ctx.settings.budget(flags.budget);
  const scope = flags.scope === undefined ? {} : { scope: flags.scope };
  const engram = await ctx.open({ defer: true });
  if (engram.path !== ':memory:' && !existsSync(engram.path)) {
    ctx.warn(`no store at ${engram.path} yet: the answers draw on no memory (/remember creates it)`);
  }
  const io = { stdin: ctx.stdin, stderr: ctx.stderr, progress: ctx.progress };
  const interactive = isInteractive(io);
  const session = createChatSession({
    answer: loopAnswerer(engram, provider, {
      loop: {
        protocol: flags.protocol,
        max_calls: flags.maxCalls,
        budget,
        timeout_ms: flags.timeout === undefined ? undefined : Math.max(1, Math.round(flags.timeout * 1000)),
        filters: scope,
      },
      systemPrompt: await systemPrompt(ctx, flags.systemPrompt),
      proposals: flags.storeProposals === true,
    }),
    remember: async (text) => remembered(await engram.put({ content: text, ...scope })),
    storeProposals: flags.storeProposals === true
      ? async (answer, given) => {
        const parsed = parseProposals(answer);
        if (parsed.format === 'text') return undefined;
        const { kept, quoted } = splitQuoted(parsed.proposals, given);
        const left = quoted.length === 0 ? '' : `left out ${quoted.length} proposal(s) quoting the memory given`;
        if (kept.length === 0) return left;
        const stored = pulled(await engram.pull(quoted.length === 0 ? answer : JSON.stringify(kept), scope));
        return left === '' ? stored : `${stored}; ${left}`;
      }
      : undefined,
    info(message) {
      ctx.progress('');
      ctx.info(message);
    },
    fail(error, step) {
      const failure = inCliTerms(toEngramError(error));
      if (!interactive && step === 'answer') throw failure;
      ctx.progress('');
      const hint = failure.hint === undefined ? '' : ` (${failure.hint})`;
      ctx.warn(`[${failure.code}] ${failure.message}${hint}`);
    },
  });
  if (interactive) ctx.info(`chat with ${provider.label} over ${engram.path}; /help lists the commands, /quit ends`);
  return { kind: 'lines', live: true, lines: chatLines(session, io) };
}
