/**
 * `engram embed`: fill the pending vectors with the configured embedder (`--embedder`,
 * ENGRAM_EMBEDDER or the config's "embedder"), in batches of 64 each committed on its own, so an
 * interrupted run resumes; `--rebuild` re-embeds every item with it. Progress on a terminal.
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

interface EmbedFlags {
  rebuild?: boolean;
}

export function configure(command: Command, run: Runner): void {
  command
    .option('--rebuild', 'drop every vector and embed all items again with the configured embedder')
    .addHelpText(
      'after',
      exampleText(
        'engram --embedder model2vec:./models/potion-base-8M embed',
        'ENGRAM_EMBEDDER=ollama:nomic-embed-text engram embed --rebuild',
        'engram stats   # vectors: how many items have one, how many are pending',
      ),
    )
    .action(
      run(async (ctx: CliContext, flags: EmbedFlags): Promise<CommandOutput> => {
        const engram = await ctx.open();
        try {
          const result = await engram.embed({
            rebuild: flags.rebuild === true,
            onProgress: (done, total) => ctx.progress(`embedded ${done}/${total}`),
          });
          return { kind: 'data', view: 'embed', data: { ...result } };
        } finally {
          ctx.progress('');
        }
      }),
    );
}
