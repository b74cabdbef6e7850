/**
 * Texts to measure token counts on, made here from word lists and templates with a seeded PRNG
 * (the same on every run): English prose and code, one sentence per script, and random memories
 * mixing Latin, CJK, kana, hangul, emoji, code and odd whitespace. Shared by the estimate and
 * budget tests and the tokens bench.
 */
import { seeded } from './adversarial/case.js';

export { seeded };

type Random = () => number;

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const SUBJECTS = [
  'the team', 'our build server', 'a new engineer', 'the nightly job', 'every reviewer', 'the search index',
  'customers in the eastern region', 'the billing service', 'my manager', 'the old laptop', 'this library',
  'the release checklist', 'nobody on the call', 'the staging database', 'a small script', 'the support desk',
];
const VERBS = [
  'moved', 'rewrote', 'measured', 'forgot', 'replaced', 'tested', 'reviewed', 'cached', 'deleted', 'documented',
  'postponed', 'simplified', 'monitored', 'rolled back', 'approved', 'questioned', 'split', 'renamed',
];
const OBJECTS = [
  'the configuration file', 'two flaky tests', 'the login page', 'an expensive query', 'the backup schedule',
  'every warning in the log', 'the migration plan', 'our onboarding notes', 'the dashboard', 'the API keys rotation',
  'a long-running transaction', 'the font on the invoices', 'the meeting notes', 'the retry policy', 'three old branches',
];
const WHEN = [
  'on Monday morning', 'after lunch', 'before the release', 'last week', 'during the outage', 'at the end of the sprint',
  'while everyone was away', 'twice in a row', 'yesterday evening', 'in under an hour', 'without telling anyone',
];
const BECAUSE = [
  'because it kept timing out', 'since nobody remembered why it existed', 'so that new people can find it',
  'because the vendor\'s format changed', 'which saved about forty seconds per run', 'although it wasn\'t strictly needed',
  'after a customer complained twice', 'to keep the disk from filling up', 'because the numbers did not add up',
  'which nobody had tried before', 'so the on-call person sleeps better',
];
const ASIDES = [
  'Honestly, it was overdue.', 'We\'ll revisit it in March.', 'Nobody objected.', 'The results were mixed (see the notes).',
  'It took 3 attempts and 2 coffees.', 'That\'s the short version; the long one is in the wiki.', 'Everyone agreed, mostly.',
];

/** One English sentence, varied in length and punctuation. */
export function englishSentence(random: Random): string {
  const subject = pick(random, SUBJECTS);
  const sentence = `${subject[0]?.toUpperCase()}${subject.slice(1)} ${pick(random, VERBS)} ${pick(random, OBJECTS)} ${pick(random, WHEN)}`;
  const tail = random() < 0.6 ? `, ${pick(random, BECAUSE)}.` : '.';
  return `${sentence}${tail}${random() < 0.3 ? ` ${pick(random, ASIDES)}` : ''}`;
}

/** `paragraphs` paragraphs of English prose, four to seven sentences each. */
export function englishProse(seed: number, paragraphs = 5): string {
  const random = seeded(seed);
  return Array.from({ length: paragraphs }, () =>
    Array.from({ length: 4 + Math.floor(random() * 4) }, () => englishSentence(random)).join(' '),
  ).join('\n\n');
}

const NOUNS = ['user', 'order', 'item', 'session', 'record', 'budget', 'token', 'range', 'batch', 'file', 'entry', 'result'];
const ACTIONS = ['load', 'merge', 'count', 'find', 'parse', 'update', 'render', 'check', 'split', 'collect'];
const camel = (random: Random) => {
  const noun = pick(random, NOUNS);
  return `${pick(random, ACTIONS)}${noun[0]?.toUpperCase()}${noun.slice(1)}s`;
};

/** One function, in TypeScript, Python or shell. */
export function codeSnippet(random: Random): string {
  const name = camel(random);
  const noun = pick(random, NOUNS);
  const limit = 10 + Math.floor(random() * 990);
  switch (Math.floor(random() * 3)) {
    case 0:
      return [
        `export async function ${name}(${noun}s: ${noun[0]?.toUpperCase()}${noun.slice(1)}[], limit = ${limit}): Promise<number> {`,
        `  let total = 0;`,
        `  for (const ${noun} of ${noun}s.slice(0, limit)) {`,
        `    if (${noun}.id === undefined || ${noun}.size <= 0) continue;`,
        `    total += await store.${pick(random, ACTIONS)}(${noun}.id, { retries: ${1 + Math.floor(random() * 5)} });`,
        `  }`,
        `  return total; // ${englishSentence(random).toLowerCase()}`,
        `}`,
      ].join('\n');
    case 1:
      return [
        `def ${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}(${noun}s, limit=${limit}):`,
        `    """${englishSentence(random)}"""`,
        `    seen = {}`,
        `    for ${noun} in ${noun}s[:limit]:`,
        `        key = (${noun}["kind"], ${noun}.get("scope", "default"))`,
        `        seen[key] = seen.get(key, 0) + 1`,
        `    return sorted(seen.items(), key=lambda kv: -kv[1])`,
      ].join('\n');
    default:
      return [
        `#!/usr/bin/env bash`,
        `set -euo pipefail`,
        `for f in ./data/${noun}s/*.json; do`,
        `  jq -r '.${noun}s[] | select(.size > ${limit}) | .id' "$f" >> /tmp/${name}.txt`,
        `done`,
        `echo "done: $(wc -l < /tmp/${name}.txt) ${noun}s"`,
      ].join('\n');
  }
}

/** `count` code snippets, blank lines between. */
export function englishCode(seed: number, count = 6): string {
  const random = seeded(seed);
  return Array.from({ length: count }, () => codeSnippet(random)).join('\n\n');
}

/** One everyday sentence or two per script (written for these tests). */
export const SCRIPT_SAMPLES: Readonly<Record<string, string>> = Object.freeze({
  chinese: '我们决定把数据库迁移到新的服务器上，因为旧的机器经常在晚上重启，导致备份失败。下周一之前必须完成测试。',
  japanese: 'このプロジェクトでは、毎晩バックアップを取り、失敗した場合は担当者にメールで通知します。設定ファイルは共有フォルダにあります。',
  korean: '우리는 다음 주에 새로운 검색 기능을 배포할 예정이며, 그 전에 모든 테스트를 통과해야 합니다. 문제가 있으면 바로 알려 주세요.',
  emoji: 'Release done 🎉🚀 thanks team 👍🏽 family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 ❤️ ✅ 🧑🏿‍💻',
  mixed: '部署 deploy 到 production 之前，请先运行 `npm test`；日本語の説明もある。배포 전에 확인하세요 ✅ 🚀',
  russian: 'Мы перенесли базу данных на новый сервер и проверили, что резервные копии создаются каждую ночь.',
  arabic: 'قررنا نقل قاعدة البيانات إلى خادم جديد لأن الخادم القديم كان يتوقف كثيرا في الليل.',
  hindi: 'हमने नया संस्करण शुक्रवार को जारी किया और सभी परीक्षण सफल रहे।',
  thai: 'เราย้ายฐานข้อมูลไปยังเซิร์ฟเวอร์ใหม่เมื่อสัปดาห์ที่แล้ว',
});

/** A code point drawn from [from, to]. */
const codePoint = (random: Random, from: number, to: number) =>
  String.fromCodePoint(from + Math.floor(random() * (to - from + 1)));
const run = (random: Random, length: number, from: number, to: number) =>
  Array.from({ length }, () => codePoint(random, from, to)).join('');

const EMOJI = ['🎉', '🚀', '👍🏽', '👨‍👩‍👧‍👦', '🇯🇵', '❤️', '✅', '🧑🏿‍💻', '😀', '🦀', '🏳️‍🌈', '#️⃣'];
const SPACES = [' ', '  ', '\t', '\n', '\n\n', '\u3000', '\u00a0', ' \n  ', '\r\n'];

/** Segments a random memory is made of, by kind. */
const SEGMENTS: ReadonlyArray<(random: Random) => string> = [
  (random) => englishSentence(random),
  (random) => codeSnippet(random),
  (random) => run(random, 1 + Math.floor(random() * 30), 0x4e00, 0x9fff), // CJK ideographs, rare ones too
  (random) => run(random, 1 + Math.floor(random() * 6), 0x3400, 0x4dbf), // CJK extension A
  (random) => run(random, 1 + Math.floor(random() * 20), 0x3041, 0x30ff), // hiragana and katakana
  (random) => run(random, 1 + Math.floor(random() * 20), 0xac00, 0xd7a3), // hangul syllables
  (random) => run(random, 1 + Math.floor(random() * 12), 0x0400, 0x04ff), // Cyrillic
  (random) => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(random, EMOJI)).join(''),
  (random) => pick(random, SPACES),
  (random) => String(Math.floor(random() * 10 ** (1 + Math.floor(random() * 9)))),
  (random) => pick(random, Object.values(SCRIPT_SAMPLES)),
  () => ['<|endof', 'text|>'].join(''), // a special token's spelling, in stored text
];

/** A random memory of 1 to 8 segments of mixed kinds. */
export function mixedMemory(random: Random): string {
  const count = 1 + Math.floor(random() * 8);
  return Array.from({ length: count }, () => pick(random, SEGMENTS)(random)).join(random() < 0.5 ? ' ' : '');
}
