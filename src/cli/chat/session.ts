/**
 * One `engram chat` session, apart from where its lines come from and go: each line is a question
 * (answered from memory by the session's {@link ChatAnswerer}) or a command:
 *
 *   /help            the commands
 *   /sources         the memories the last answer was given: ids and titles
 *   /remember TEXT   stores TEXT as a note, through the write policy (`put`)
 *   /quit            ends the session (so do end of input and /exit)
 *
 * An answer's memory proposals are stored (`pull`) only when the session was asked to. A failed
 * answer, remember or store is the caller's to show; the session goes on.
 */
/** A memory an answer was given. */
export interface ChatSource {
  id: string;
  title: string;
}

/** A question and the answer it got, for the context of the questions after it. */
export interface ChatExchange {
  question: string;
  answer: string;
}

export interface ChatAnswer {
  answer: string;
  /** The memories the model was given, in the order given. */
  sources: ChatSource[];
  /** The memory text the model was given (to tell its own proposals from quoted ones). */
  given?: string;
}

/** The answering step: easy to swap (the loop controller, one recall and one call, a test's fake). */
export type ChatAnswerer = (
  question: string,
  history: readonly ChatExchange[],
  signal?: AbortSignal,
) => Promise<ChatAnswer>;

export interface ChatDeps {
  answer: ChatAnswerer;
  /** Stores `text` as a note through the policy; the line that says what happened. */
  remember(text: string): Promise<string>;
  /**
   * Stores an answer's proposals (`pull`), `given` the memory text the model was given; the line
   * that says what happened, undefined when there were none.
   */
  storeProposals?: (answer: string, given: string) => Promise<string | undefined>;
  /** A status line for stderr. */
  info(message: string): void;
  /**
   * A failure of one step, for stderr; the session goes on unless this throws (a session reading
   * a script may end at a failed answer).
   */
  fail(error: unknown, step: ChatStep): void;
}

/** What failed: answering a question, `/remember`, or storing an answer's proposals. */
export type ChatStep = 'answer' | 'remember' | 'proposals';

/** What a line gives: text for stdout, and whether the session ends. */
export interface ChatReply {
  text?: string;
  quit?: true;
}

/** The longest question asked (recall's query limit): a longer line is skipped with a warning. */
export const MAX_QUESTION_CHARS = 10_000;

/** How many exchanges the next questions see (the newest). */
export const HISTORY_EXCHANGES = 6;

export const CHAT_HELP = [
  'Type a question to get an answer drawn from memory. Commands:',
  '  /help            this list',
  '  /sources         the memories the last answer was given (ids and titles)',
  '  /remember TEXT   store TEXT as a note (through the write policy)',
  '  /quit            end the session (also /exit, Ctrl-D)',
].join('\n');

export interface ChatSession {
  /** Handles one input line (a question or a command). */
  handle(line: string, signal?: AbortSignal): Promise<ChatReply>;
}

function sourcesText(sources: readonly ChatSource[] | undefined): string {
  if (sources === undefined) return 'No answer yet.';
  if (sources.length === 0) return 'The last answer was given no memory.';
  return sources.map(({ id, title }) => `${id}  ${title === '' ? '(untitled)' : title}`).join('\n');
}

/**
 * A session over `deps`.
 *
 * @example
 * const session = createChatSession({ answer, remember, info, fail });
 * const { text } = await session.handle('How do we deploy?');
 */
export function createChatSession(deps: ChatDeps): ChatSession {
  const history: ChatExchange[] = [];
  let lastSources: ChatSource[] | undefined;

  async function ask(question: string, signal: AbortSignal | undefined): Promise<ChatReply> {
    let result: ChatAnswer;
    try {
      result = await deps.answer(question, history.slice(-HISTORY_EXCHANGES), signal);
    } catch (error) {
      deps.fail(error, 'answer');
      return {};
    }
    lastSources = result.sources;
    history.push({ question, answer: result.answer });
    if (deps.storeProposals !== undefined && result.answer.trim() !== '') {
      try {
        const stored = await deps.storeProposals(result.answer, result.given ?? '');
        if (stored !== undefined) deps.info(stored);
      } catch (error) {
        deps.fail(error, 'proposals');
      }
    }
    return { text: result.answer };
  }

  async function command(name: string, rest: string): Promise<ChatReply> {
    switch (name) {
      case 'help':
        return { text: CHAT_HELP };
      case 'sources':
        return { text: sourcesText(lastSources) };
      case 'quit':
      case 'exit':
        return { quit: true };
      case 'remember':
        if (rest === '') {
          deps.info('/remember needs the text to store: /remember TEXT');
          return {};
        }
        try {
          deps.info(await deps.remember(rest));
        } catch (error) {
          deps.fail(error, 'remember');
        }
        return {};
      default:
        deps.info(`unknown command /${name}; /help lists them`);
        return {};
    }
  }

  return {
    async handle(line, signal) {
      const text = line.trim();
      if (text === '') return {};
      const named = /^\/([a-z]+)\b\s*([\s\S]*)$/i.exec(text);
      if (named !== null) return command((named[1] ?? '').toLowerCase(), (named[2] ?? '').trim());
      if (text.length > MAX_QUESTION_CHARS) {
        deps.info(`question not asked: ${text.length} characters, over the ${MAX_QUESTION_CHARS} a recall takes; ask a shorter one`);
        return {};
      }
      return ask(text, signal);
    },
  };
}
