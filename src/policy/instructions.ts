/**
 * The instruction rules beside the injection rules (`injection.ts`): tool-call markup and payloads
 * in any key order, chat messages as JSON, run-now and exfiltration directives (rejected), and the
 * self-instructions, standing orders to the assistant, that are quarantined.
 *
 * Descriptions name what a rule catches without quoting a triggering phrase, so that this file and
 * the rule listing pass the policy themselves.
 */
import { loadInjectionSources } from './injection-sources.generated.js';
import { lazyRule, type RuleDefinition } from './lazy-rule.js';
import type { PatternRule } from './rules.js';

/** `"key": "value"` pairs, single or double quoted. */
const NAME_KEY = '["\'](?:name|tool|function|tool_name|toolName|function_name|recipient_name)["\']\\s*:\\s*["\'][\\w.:/-]{1,100}["\']';
const ARGS_KEY = '["\'](?:arguments|parameters|input|args|params|tool_input|kwargs)["\']\\s*:\\s*(?=[{"\'[])';
/** Within one flat stretch of an object (no braces between the keys). */
const SAME_OBJECT = '[^{}]{0,400}?';

const INSTRUCTION: PatternRule[] = ([
  {
    id: 'instruction.tool-call-markup',
    kind: 'token',
    description: 'Tool-invocation markup (function_calls, invoke, tool_call, tool_use, tools, function tags, parameter tags)',
    patterns: () => [
      /<\/?(?:[a-z]+:)?(?:function_calls|function_call|tool_calls?|tool_use|tool_result|tool_response|tools|invoke)\b[^>]{0,200}>/gi,
      /<(?:[a-z]+:)?parameter\s+name=["'][^"']{1,100}["']\s*>/gi,
      /<function=[\w.-]{1,100}>/gi,
    ],
  },
  {
    id: 'instruction.tool-call-json',
    kind: 'token',
    description: 'Raw tool-call JSON payloads in any key order (tool_calls, function_call, tool_use blocks, objects with a tool name and its arguments) standing on their own line, not quoted in a sentence',
    patterns: () => [
      /["'](?:tool_calls|function_call|functionCall|tool_use_id|tool_call_id|toolUse|toolCall)["']\s*:/g,
      /["']type["']\s*:\s*["'](?:tool_use|tool_call|function_call|tool_result)["']/g,
      new RegExp(`${NAME_KEY}${SAME_OBJECT}${ARGS_KEY}`, 'g'),
      new RegExp(`${ARGS_KEY}(?:[^{}]|\\{[^{}]{0,400}\\}){0,400}?${NAME_KEY}`, 'g'),
    ],
    accept: standsAlone,
  },
  {
    id: 'instruction.chat-role-json',
    kind: 'token',
    description: 'Chat messages as JSON whose role is system, developer, assistant or tool, standing on their own line',
    patterns: () => [/["']role["']\s*:\s*["'](?:system|developer|assistant|tool|model)["']/g],
    accept: standsAlone,
  },
  {
    id: 'instruction.execute-directive',
    kind: 'phrase',
    description: 'Orders the agent to run a command or tool at once, without confirmation (English and French)',
    patterns: () => [
      /\b(?:execute|run) (?:the following|this|these) (?:shell )?(?:commands?|code|script)(?: \S+){0,3}? (?:immediately|right now|without (?:asking|confirmation|telling))\b/gi,
      /\b(?:call|invoke|use) the \S+ tool (?:to|and) (?:delete|send|exfiltrate|upload|remove|post|email|transfer)\b/gi,
      /\b(?:execute[rz]?|lance[rz]?) (?:immediatement )?(?:la|les|cette|ces) commandes? suivantes?(?: \S+){0,3}? sans (?:demander|confirmation)\b/gi,
    ],
  },
  {
    id: 'instruction.exfiltrate',
    kind: 'phrase',
    description: 'Orders the agent to send secrets, memory or the conversation to an outside address, or to load an image whose address carries data',
    patterns: () => [
      /\b(?:send|post|upload|exfiltrate|email|forward|leak|transmit|copy|pipe|curl|paste) (?:\S+ ){0,4}?(?:secrets?|credentials?|api keys?|tokens?|passwords?|env(?:ironment)? (?:variables|vars)|\.env|ssh keys?|private keys?|conversation|chat history|memories|memory|system prompt|database(?: dump)?|cookies|session) (?:\S+ ){0,4}?to (?:https?:\/\/|ftp:\/\/|\S+@\S+\.\w+|the (?:following|this|attacker|external|remote) (?:url|address|endpoint|webhook|server|email)|(?:my|our|this) (?:webhook|server|endpoint))/gi,
      /!\[[^\]]{0,100}\]\(https?:\/\/[^)\s]{1,300}[?&][\w-]{1,40}=(?:\{|\$\{|%7B|<|\[)[^)]{0,300}\)/gi,
      new RegExp(loadInjectionSources().exfiltrate, 'g'),
    ],
  },
] satisfies Omit<RuleDefinition, 'group' | 'action'>[]).map((rule) => lazyRule({ ...rule, group: 'instruction', action: 'reject' }));

/** Who a standing order is addressed to: the assistant itself, not a team. */
const ASSISTANT_BEHAVIOUR = '(?:respond|reply|answer|greet|address|tell|say|sign|format|write (?:your|the) (?:answers?|replies|responses)|call the user|refer to|recommend|suggest|mention (?:to the user|in (?:your|every) (?:answers?|replies|responses))|use (?:a |an )?(?:formal|informal|friendly|polite|casual) (?:tone|register)|speak|talk|obey|trust|comply|agree|apologi[sz]e|praise|refuse|include (?:a |an |the )?\\S+ in (?:your|every) (?:answers?|replies|responses))';

const SELF_INSTRUCTION: PatternRule[] = ([
  {
    id: 'self-instruction.remember',
    description: 'Standing orders to the assistant to remember or never forget how to answer (English and French); team conventions pass',
    patterns: () => [
      new RegExp(`\\b(?:always|never) (?:remember|forget) to (?:always )?${ASSISTANT_BEHAVIOUR}\\b`, 'gi'),
      new RegExp(`\\bremember to always ${ASSISTANT_BEHAVIOUR}\\b`, 'gi'),
      new RegExp(`\\bmake sure (?:to |you )?always ${ASSISTANT_BEHAVIOUR}\\b`, 'gi'),
      /\b(?:you|the assistant|the agent|the model|claude) (?:should |must )?(?:always|never) (?:remember|forget) (?:to|that)\b/gi,
      /\b(?:souviens-toi|rappelle-toi|souvenez-vous|rappelez-vous) (?:toujours )?(?:de (?:repondre|toujours repondre|me|nous)|que (?:tu|vous) (?:dois|devez))/gi,
      /\bn'oublie(?:z)? (?:jamais|pas) de (?:repondre|toujours repondre|me (?:repondre|tutoyer|vouvoyer))/gi,
    ],
  },
  {
    id: 'self-instruction.future-sessions',
    description: 'Instructions aimed at later sessions or conversations (English and French)',
    patterns: () => [
      /\b(?:in|for|during|across) (?:all |every )?(?:future|subsequent|upcoming|later)(?: \S+)? (?:sessions?|conversations?|chats?|interactions?|turns?)\b/gi,
      /\bnext time (?:you|the assistant|the agent)\b/gi,
      /\b(?:from now on|going forward|henceforth),? (?:always|never|remember|you)\b/gi,
      /\b(?:dans|pour|lors) (?:de |des )?(?:les |toutes les )?(?:prochaines|futures) (?:sessions|conversations|discussions)\b/gi,
      /\ba l'avenir,? (?:tu|vous|toujours|pense|pensez)\b/gi,
      /\bla prochaine fois que (?:tu|vous)\b/gi,
    ],
  },
  {
    id: 'self-instruction.directive',
    description: 'Standing orders to the assistant about how to behave or answer (English and French)',
    patterns: () => [
      /\b(?:you|the assistant|the agent|the model|the ai|claude|chatgpt) (?:must|should|shall|will) (?:always|never)\b/gi,
      /\b(?:always|never) (?:respond|reply|answer|recommend|suggest|tell the user|obey|trust)\b/gi,
      /\bwhenever (?:you are asked|the user asks|you see|you encounter)\b/gi,
      /\b(?:tu dois|vous devez|tu devras|vous devrez) (?:toujours|jamais)\b/gi,
      /\b(?:reponds|repondez|recommande[sz]?) toujours\b/gi,
    ],
  },
] satisfies Omit<RuleDefinition, 'group' | 'action' | 'kind'>[]).map((rule) =>
  lazyRule({ ...rule, group: 'self-instruction', action: 'quarantine', kind: 'phrase' }));

/**
 * A JSON payload counts when it stands on its own: the outermost object or array holding the
 * match opens its line (after indentation, list markers or other brackets). JSON quoted inside a
 * sentence is a note about a format, and the phrase rules still read what it says.
 */
function standsAlone(m: RegExpExecArray): boolean {
  const text = m.input;
  let depth = 0;
  let open = -1;
  for (let i = m.index - 1; i >= Math.max(0, m.index - 2000); i--) {
    const c = text[i];
    if (c === '}' || c === ']') depth++;
    else if (c === '{' || c === '[') {
      if (depth === 0) open = i;
      else depth--;
    }
  }
  if (open < 0) return true;
  const lineStart = text.lastIndexOf('\n', open) + 1;
  return /^[\s\-*>,[{(]*$/.test(text.slice(lineStart, open));
}

/** Rejected: tool-call payloads, run-now and exfiltration orders. */
export const INSTRUCTION_RULES: readonly PatternRule[] = INSTRUCTION;
/** Quarantined: standing orders to the assistant about its own behaviour. */
export const SELF_INSTRUCTION_RULES: readonly PatternRule[] = SELF_INSTRUCTION;
