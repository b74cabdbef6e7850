/** `engram init [DIR]`: create DIR/.engram with the database, config.json and a .gitignore. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE, DB_FILE, STORE_DIR } from '../../config/discover-store.js';
import {
  DEFAULT_FTS_TOKENIZER,
  FTS_TOKENIZER_NAMES,
  FTS_TOKENIZER_PRESETS,
  type FtsTokenizerPreset,
  isFtsTokenizerPreset,
} from '../../config/fts-tokenizer.js';
import { EngramError } from '../../errors.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

const GITIGNORE
  = '# engram: the database is local state; config.json may be committed\nmemory.db\nmemory.db-*\n';

export function configure(command: Command, run: Runner): void {
  command
    .argument('[dir]', 'project directory (default: current directory)')
    .addOption(
      enumOption('--fts-tokenizer <preset>', 'full-text tokenizer preset', FTS_TOKENIZER_NAMES),
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
  const fromEnv = ctx.env.ENGRAM_FTS_TOKENIZER;
  if (fromEnv !== undefined && !isFtsTokenizerPreset(fromEnv)) {
    throw new EngramError('PARAM_ERROR', `Invalid ENGRAM_FTS_TOKENIZER '${fromEnv}'`, {
      hint: `Valid values: ${FTS_TOKENIZER_NAMES.join(', ')}`,
    });
  }
  const requested = flags.ftsTokenizer ?? fromEnv;
  const tokenizer = existing.fts_tokenizer ?? requested ?? DEFAULT_FTS_TOKENIZER;
  if (
    requested !== undefined
    && existing.fts_tokenizer !== undefined
    && requested !== existing.fts_tokenizer
  ) {
    ctx.warn(
      `already initialised with --fts-tokenizer ${existing.fts_tokenizer}; '${requested}' ignored`,
    );
  }
  if (!existsSync(storeDir)) {
    mkdirSync(storeDir, { recursive: true });
    created.push(storeDir);
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
  const dbExisted = existsSync(dbPath);
  const { openEngram } = await import('../../engram.js');
  const engram = await openEngram({ path: dbPath, ftsTokenizer: tokenizer });
  engram.close();
  if (!dbExisted) created.push(dbPath);
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
