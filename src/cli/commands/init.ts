/**
 * `engram init [DIR]`: create DIR/.engram with the database, config.json and a .gitignore, and say
 * which search tokenizer the store uses.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE, DB_FILE, STORE_DIR } from '../../config/discover-store.js';
import {
  DEFAULT_FTS_TOKENIZER,
  FTS_TOKENIZER_NAMES,
  FTS_TOKENIZER_PRESETS,
  type FtsTokenizerPreset,
  ftsTokenizerFromEnv,
  isFtsTokenizerPreset,
  localeFtsTokenizer,
} from '../../config/fts-tokenizer.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

const GITIGNORE
  = '# engram: the database is local state; config.json may be committed\nmemory.db\nmemory.db-*\n';

export function configure(command: Command, run: Runner): void {
  command
    .argument('[dir]', 'project directory (default: current directory)')
    .addOption(
      enumOption(
        '--fts-tokenizer <preset>',
        'full-text tokenizer of a new store (default: en, English stemming; fr when the locale is French; ENGRAM_FTS_TOKENIZER)',
        FTS_TOKENIZER_NAMES,
      ),
    )
    .addHelpText('after', exampleText('engram init', 'engram init ~/notes --fts-tokenizer en'))
    .action(
      run(
        async (
          ctx: CliContext,
          dir: string | undefined,
          flags: { ftsTokenizer?: FtsTokenizerPreset },
        ) => initCommand(ctx, dir, flags),
      ),
    );
}

async function initCommand(
  ctx: CliContext,
  dir: string | undefined,
  flags: { ftsTokenizer?: FtsTokenizerPreset },
): Promise<CommandOutput> {
  const storeDir = join(resolve(ctx.cwd, dir ?? '.'), STORE_DIR);
  const dbPath = join(storeDir, DB_FILE);
  const configPath = join(storeDir, CONFIG_FILE);
  const created: string[] = [];
  const { readProjectConfig } = await import('../../config/project-config.js');
  const existing = readProjectConfig(configPath);
  const requested = flags.ftsTokenizer ?? ftsTokenizerFromEnv(ctx.env.ENGRAM_FTS_TOKENIZER);
  if (!existsSync(storeDir)) {
    mkdirSync(storeDir, { recursive: true });
    created.push(storeDir);
  }
  const dbExisted = existsSync(dbPath);
  const { openEngram } = await import('../../engram.js');
  // The tokenizer of a new store; an existing store keeps the one recorded in it.
  const engram = await openEngram({
    path: dbPath,
    ftsTokenizer: existing.fts_tokenizer ?? requested ?? localeFtsTokenizer(ctx.env),
  });
  const recorded = engram.ftsTokenizer;
  engram.close();
  if (!dbExisted) created.push(dbPath);
  const tokenizer = recorded !== null && isFtsTokenizerPreset(recorded) ? recorded : DEFAULT_FTS_TOKENIZER;
  if (requested !== undefined && requested !== tokenizer) {
    ctx.warn(`the store already uses the fts tokenizer ${tokenizer}; '${requested}' ignored (it is chosen when a store is created)`);
  }
  if (!existsSync(configPath)) {
    writeFileSync(configPath, `${JSON.stringify({ fts_tokenizer: tokenizer }, null, 2)}\n`);
    created.push(configPath);
  }
  const gitignorePath = join(storeDir, '.gitignore');
  if (!existsSync(gitignorePath)) {
    writeFileSync(gitignorePath, GITIGNORE);
    created.push(gitignorePath);
  }
  return {
    kind: 'data',
    view: 'init',
    data: {
      path: storeDir,
      db: dbPath,
      created: created.length > 0,
      files_created: created,
      fts_tokenizer: tokenizer,
      fts_tokenizer_spec: FTS_TOKENIZER_PRESETS[tokenizer],
    },
  };
}
