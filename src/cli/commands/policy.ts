/**
 * `engram policy check [FILE|-]`: the write policy's verdict on any text, storing nothing (a
 * rejection is the same POLICY_REJECTED error a write gets); `engram policy rules`: every rule.
 */
import type { Command } from 'commander';
import { ITEM_TYPES } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import { readFileOrStdin } from '../read-input.js';
import type { Runner } from '../runner.js';

interface CheckFlags {
  type?: (typeof ITEM_TYPES)[number];
  proposal?: boolean;
  wholeFile?: boolean;
}

export function configure(command: Command, run: Runner): void {
  command
    .command('check')
    .description('Dry-run the write policy on a text: accept, quarantine (exit 0) or POLICY_REJECTED (exit 1)')
    .argument('[file]', 'file to check, or \'-\' for stdin (the default)', '-')
    .addOption(enumOption(command, '--type <type>', 'item type the text would be stored as (pointer skips the size rule)', ITEM_TYPES))
    .option('--proposal', 'check as an agent proposal, which needs provenance')
    .option('--whole-file', 'skip the size rule (ingest would chunk the file)')
    .addHelpText(
      'after',
      exampleText('engram policy check notes.md', 'echo "deploy key: …" | engram policy check', 'engram policy check README.md --whole-file'),
    )
    .action(run(checkCommand));
  command
    .command('rules')
    .description('List every policy rule: id, group, action, description')
    .addHelpText('after', exampleText('engram policy rules', 'engram policy rules --json | jq \'.rules[].id\''))
    .action(run(rulesCommand));
}

async function checkCommand(ctx: CliContext, file: string, flags: CheckFlags): Promise<CommandOutput> {
  const content = await readFileOrStdin(file, ctx);
  const { checkPolicy } = await import('../../policy/check-policy.js');
  const { policyRejected } = await import('../../items/admission.js');
  const verdict = checkPolicy(
    { content, type: flags.type },
    { requireProvenance: flags.proposal === true, ignoreSize: flags.wholeFile === true },
  );
  if (verdict.verdict === 'reject') throw policyRejected(verdict);
  return { kind: 'data', view: 'policy', data: { ...verdict } };
}

async function rulesCommand(): Promise<CommandOutput> {
  const { POLICY_RULES } = await import('../../policy/check-policy.js');
  return { kind: 'data', view: 'rules', data: { rules: POLICY_RULES } };
}
