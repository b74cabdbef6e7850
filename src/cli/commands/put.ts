/** `engram put`: create or update an item (by id, by logical key, or new). */
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import { ITEM_TYPES, LAYERS, SECRECY_TIERS, type TIERS, VALIDATIONS } from '../../types.js';
import type { PutResult } from '../../engram.js';
import type { CliContext, CommandOutput } from '../context.js';
import { cliHint } from '../error-terms.js';
import {
  enumOption,
  exampleText,
  intOption,
  jsonObjectOption,
  listOption,
  numberOption,
  TIER_VALUES,
  timeOption,
} from '../options.js';
import { readContent } from '../read-input.js';
import type { Runner } from '../runner.js';
import { noteAutoConsolidation, noteSimilar } from '../write-notes.js';

interface PutFlags {
  id?: string;
  content?: string;
  file?: string;
  title?: string;
  type?: (typeof ITEM_TYPES)[number];
  tier?: (typeof TIERS)[number];
  layer?: (typeof LAYERS)[number];
  key?: string;
  task?: string;
  step?: string;
  scope?: string;
  corpus?: string;
  tags?: string[];
  entities?: string[];
  source?: string;
  provenance?: Record<string, unknown>;
  confidence?: number;
  validation?: (typeof VALIDATIONS)[number];
  weight?: number;
  injectable?: boolean;
  secrecy?: (typeof SECRECY_TIERS)[number];
  expires?: string;
  ifVersion?: number;
  mergeSimilar?: boolean;
  auto?: boolean;
}

export function configure(command: Command, run: Runner): void {
  const update = command.name() === 'update';
  if (update) command.argument('<id>', 'item id');
  else command.argument('[stdin]', '\'-\' to read content from standard input');
  if (!update) command.option('--id <id>', 'update this item (NOT_FOUND if absent)');
  command
    .option('--content <text>', update ? 'new content' : 'the content')
    .option('--file <path>', `read the ${update ? 'new ' : ''}content from a file ('-' for stdin)`)
    .option('--title <text>', 'short title')
    .addOption(enumOption(command, '--type <type>', 'item type', ITEM_TYPES))
    .addOption(enumOption(command, '--tier <tier>', 'memory tier', TIER_VALUES))
    .addOption(enumOption(command, '--layer <layer>', 'memtool layer; with --key makes an upsert', LAYERS))
    .option('--key <key>', 'logical key (upserts on layer+key+task+step)')
    .option('--task <id>', 'task id')
    .option('--step <id>', 'step id')
    .option('--scope <scope>', 'workspace scope (default: project)')
    .option('--corpus <id>', 'corpus id')
    .addOption(listOption(command, '--tags <tags>', 'tags'))
    .addOption(listOption(command, '--entities <names>', 'entities'))
    .option('--source <source>', 'where it came from (PRD, manual, log, …)')
    .addOption(jsonObjectOption(command, '--provenance <json>', 'provenance as a JSON object'))
    .addOption(numberOption(command, '--confidence <0..1>', 'confidence', 0, 1))
    .addOption(enumOption(command, '--validation <state>', 'validation state (contradicted: never recalled)', VALIDATIONS))
    .addOption(numberOption(command, '--weight <n>', 'importance weight', 0, 1e6))
    .option('--injectable', 'may be pasted into prompts by recall (default)')
    .option('--no-injectable', 'never paste into prompts')
    .addOption(enumOption(command, '--secrecy <tier>', 'secrecy tier', SECRECY_TIERS))
    .addOption(timeOption(command, '--expires <when>', 'expiry', 'future'))
    .addOption(
      intOption(command, '--if-version <n>', 'write only if the stored version is n (0: must not exist)'),
    );
  if (!update) {
    command
      .option('--merge-similar', 'fold a new item into its closest near-duplicate in the scope (only when one says all the other says)')
      .option('--no-auto', 'no automatic consolidation after this write (or ENGRAM_AUTO_CONSOLIDATE=off)');
  }
  command
    .addHelpText(
      'after',
      update
        ? exampleText(
            'engram update MEM-0123456789ab --tags auth,security --confidence 0.9',
            'engram update MEM-0123456789ab --validation contradicted',
            'engram update MEM-0123456789ab --file notes.md --if-version 3',
          )
        : exampleText(
            'engram put --layer feature --task T123 --key business_rules --content \'Password: 8+ chars\'',
            'echo \'We chose JWT for stateless auth\' | engram put --type decision --tags auth',
            'engram put --id MEM-0123456789ab --if-version 2 --file notes.md',
          ),
    )
    .action(
      run(async (ctx, arg: string | undefined, flags: PutFlags) =>
        update ? updateCommand(ctx, arg ?? '', flags) : putCommand(ctx, arg, flags),
      ),
    );
}

/** Every item field given as a flag (content aside). */
function fieldsOf(flags: PutFlags) {
  return {
    if_version: flags.ifVersion,
    title: flags.title,
    type: flags.type,
    tier: flags.tier,
    layer: flags.layer,
    key: flags.key,
    task_id: flags.task,
    step_id: flags.step,
    scope: flags.scope,
    corpus_id: flags.corpus,
    tags: flags.tags,
    entities: flags.entities,
    source: flags.source,
    provenance: flags.provenance,
    confidence: flags.confidence,
    validation: flags.validation,
    weight: flags.weight,
    injectable: flags.injectable,
    secrecy: flags.secrecy,
    expires_at: flags.expires,
  };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function written(ctx: CliContext, result: PutResult): CommandOutput {
  if (result.policy.verdict === 'quarantine' && result.action !== 'unchanged') {
    const rules = result.policy.matches.map((m) => m.rule).join(', ');
    ctx.warn(
      `quarantined by policy (${rules}): stored, never injected, expires ${result.item.expires_at ?? 'never'}; keep it with \`engram verify ${result.item.id}\``,
    );
  }
  noteSimilar(ctx, result);
  noteAutoConsolidation(ctx, result);
  const { warning, fix } = result.embedding ?? {};
  if (warning !== undefined) ctx.warn(`${warning}; ${fix === undefined ? '`engram embed` fills it later' : lowerFirst(cliHint(fix))}`);
  return { kind: 'data', view: 'put', data: { ...result } };
}

async function putCommand(
  ctx: CliContext,
  stdinArg: string | undefined,
  flags: PutFlags,
): Promise<CommandOutput> {
  if (stdinArg !== undefined && stdinArg !== '-') {
    throw new EngramError('PARAM_ERROR', `Unexpected argument '${stdinArg}'`, {
      hint: 'Pass text with --content, a file with --file, or \'-\' for stdin.',
    });
  }
  const content = await readContent(
    { content: flags.content, file: flags.file, dash: stdinArg === '-' },
    ctx,
  );
  const engram = await ctx.open({ write: true, auto: flags.auto !== false });
  const input = { content, id: flags.id, merge_similar: flags.mergeSimilar, ...fieldsOf(flags) };
  return written(ctx, await engram.put(input));
}

/** `engram update ID --field value…`: content only when --content or --file is given. */
async function updateCommand(ctx: CliContext, id: string, flags: PutFlags): Promise<CommandOutput> {
  const content
    = flags.content === undefined && flags.file === undefined
      ? undefined
      : await readContent({ content: flags.content, file: flags.file }, ctx);
  const engram = await ctx.open();
  return written(ctx, await engram.update(id, { ...fieldsOf(flags), ...(content === undefined ? {} : { content }) }));
}
