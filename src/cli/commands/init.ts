/**
 * `engram init [DIR]`: create DIR/.engram with the database, config.json and a .gitignore, and say
 * which search tokenizer the store uses. Without DIR, the store `--db` or `ENGRAM_DB` names is the
 * one created (with config.json and .gitignore when it sits in a `.engram` directory).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
import { shellWord } from '../../util/shell-word.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';
import type { InitResult } from '../views/init.js';

function gitignore(dbFile: string): string {
  return `# engram: the database is local state; config.json may be committed\n${dbFile}\n${dbFile}-*\n`;
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('[dir]', 'project directory (default: the --db or ENGRAM_DB file, else the current directory)')
    .addOption(
      enumOption(command,
        '--fts-tokenizer <preset>',
        'full-text tokenizer of a new store (default: en, English stemming; fr when the locale is French; ENGRAM_FTS_TOKENIZER)',
        FTS_TOKENIZER_NAMES,
      ),
    )
    .option('--print-env', 'print `export ENGRAM_DB=…` (the absolute path, shell-quoted) for eval; the status goes to stderr')
    .addHelpText(
      'after',
      exampleText(
        'engram init',
        'engram init ~/notes --fts-tokenizer en',
        'engram init --db ~/memories/work.db',
        'eval "$(engram init ~/notes --print-env)"',
      ),
    )
    .action(run(initCommand));
}

interface InitFlags {
  ftsTokenizer?: FtsTokenizerPreset;
  printEnv?: boolean;
}

/**
 * `--print-env`: the line that points the shell at the store (memctl's `eval $(memctl init)`), on
 * stdout as a block so that it is printed as is; `--json` gives the result with `env` instead.
 */
function printEnv(ctx: CliContext, result: InitResult): CommandOutput {
  ctx.info(`${result.created ? 'Initialised' : 'Already initialised'} ${result.path}`);
  const text = `export ENGRAM_DB=${shellWord(result.db)}\n`;
  return { kind: 'block', text, data: { ...result, env: { ENGRAM_DB: result.db } } };
}

type InitSource = InitResult['source'];

interface InitTarget {
  /** The database file. */
  db: string;
  /** The `.engram` directory holding it, with config.json and .gitignore; none for a file elsewhere. */
  storeDir: string | undefined;
  /** DIR (or the working directory), `--db`, or `ENGRAM_DB`. */
  source: InitSource;
}

/**
 * Where `init` puts the store: DIR/.engram/memory.db when DIR is given; else the file `--db` or
 * `ENGRAM_DB` names, so that the commands that follow, which find the store the same way, use the
 * store init made; else ./.engram/memory.db.
 */
function initTarget(ctx: CliContext, dir: string | undefined): InitTarget {
  const flag = ctx.settings.dbFlag === '' ? undefined : ctx.settings.dbFlag;
  const env = ctx.settings.dbEnv;
  if (dir !== undefined && flag !== undefined) {
    throw new EngramError('PARAM_ERROR', 'Give the store\'s place once: DIR or --db', {
      hint: '`engram init DIR` creates DIR/.engram/memory.db; `engram init --db FILE` creates FILE.',
    });
  }
  let named: { value: string; source: 'flag' | 'env' } | undefined;
  if (dir === undefined && flag !== undefined) named = { value: flag, source: 'flag' };
  else if (dir === undefined && env !== undefined) named = { value: env, source: 'env' };
  if (named === undefined) {
    const storeDir = join(resolve(ctx.cwd, dir ?? '.'), STORE_DIR);
    if (env !== undefined) ctx.warn(`ENGRAM_DB=${env} is set: the other commands use that store, not this one`);
    return { db: join(storeDir, DB_FILE), storeDir, source: 'dir' };
  }
  const by = named.source === 'flag' ? '--db' : 'ENGRAM_DB';
  if (named.value === ':memory:') {
    throw new EngramError('PARAM_ERROR', `init needs a file, not ${by} :memory:`, {
      hint: 'An in-memory store lasts one command; give a file path.',
    });
  }
  const db = resolve(ctx.cwd, named.value);
  if (basename(dirname(db)) === STORE_DIR) return { db, storeDir: dirname(db), source: named.source };
  if (!existsSync(dirname(db))) {
    throw new EngramError('PARAM_ERROR', `Cannot create ${db} (${by}): directory ${dirname(db)} does not exist`, {
      hint: 'Create the directory first, or name a file in an existing one.',
      details: { path: db, source: named.source },
    });
  }
  return { db, storeDir: undefined, source: named.source };
}

async function initCommand(ctx: CliContext, dir: string | undefined, flags: InitFlags): Promise<CommandOutput> {
  const { db: dbPath, storeDir, source } = initTarget(ctx, dir);
  const created: string[] = [];
  const configPath = storeDir === undefined ? undefined : join(storeDir, CONFIG_FILE);
  const existing = configPath === undefined ? {} : await ctx.settings.projectConfig(configPath);
  const requested = ctx.settings.ftsTokenizer(flags.ftsTokenizer);
  if (storeDir !== undefined && !existsSync(storeDir)) {
    mkdirSync(storeDir, { recursive: true });
    created.push(storeDir);
  }
  const dbExisted = existsSync(dbPath);
  const { openEngram } = await import('../../engram.js');
  // The tokenizer of a new store; an existing store keeps the one recorded in it.
  const engram = await openEngram({
    path: dbPath,
    ftsTokenizer: existing.fts_tokenizer ?? requested ?? ctx.settings.localeFtsTokenizer(),
  });
  const recorded = engram.ftsTokenizer;
  engram.close();
  if (!dbExisted) created.push(dbPath);
  const tokenizer = recorded !== null && isFtsTokenizerPreset(recorded) ? recorded : DEFAULT_FTS_TOKENIZER;
  if (requested !== undefined && requested !== tokenizer) {
    ctx.warn(`the store already uses the fts tokenizer ${tokenizer}; '${requested}' ignored (it is chosen when a store is created)`);
  }
  if (storeDir !== undefined && configPath !== undefined) {
    if (!existsSync(configPath)) {
      writeFileSync(configPath, `${JSON.stringify({ fts_tokenizer: tokenizer }, null, 2)}\n`);
      created.push(configPath);
    }
    const gitignorePath = join(storeDir, '.gitignore');
    if (!existsSync(gitignorePath)) {
      writeFileSync(gitignorePath, gitignore(basename(dbPath)));
      created.push(gitignorePath);
    }
  }
  const result: InitResult = {
    path: storeDir ?? dbPath,
    db: dbPath,
    source,
    created: created.length > 0,
    files_created: created,
    fts_tokenizer: tokenizer,
    fts_tokenizer_spec: FTS_TOKENIZER_PRESETS[tokenizer],
  };
  return flags.printEnv === true ? printEnv(ctx, result) : { kind: 'data', view: 'init', data: result };
}
