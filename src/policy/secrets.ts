/**
 * The secret rules of the write policy: provider token formats (with their prefixes, lengths and
 * alphabets, as the providers and the gitleaks rule set document them), private keys in every
 * block style, and generic detectors — a generated-looking value next to a credential word in
 * several languages, credentials in command lines, HTTP headers, `.npmrc`, Docker `auths` and
 * URLs. secretlint's maintained preset runs beside these (src/policy/secretlint.ts).
 *
 * Documentation example values and placeholders are accepted: every rule's match goes through
 * `isDocumentationValue` or its own `accept` check. Descriptions name what a rule catches without
 * quoting a triggering value, so that this file passes the policy itself.
 */
import type { PatternRule } from './rules.js';

const PLACEHOLDER
  = /^(?:\*+|x+|\.+|-+|_+|#+|\?+|0+|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\$\{?\w+\}?|%\w+%|\$\(.*\)|(?:my|your|the|some|new|old|example|sample|dummy|fake|test|default)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|token|api[_-]?key|key|changeme|change[_-]?me|redacted|placeholder|value|xxx+|none|null|nil|undefined|empty|example|sample|dummy|hunter2|letmein|admin|root|user|guest|test|string|str|env|required|optional)s?\d?)$/i;

/** A value that stands for a secret without being one (`XXXX`, `<token>`, `${TOKEN}`, `changeme`…). */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value.trim());
}

/** Published example credentials, masked or templated values, and Stripe test-mode keys. */
const DOCUMENTATION_VALUE = new RegExp(
  [
    'EXAMPLE', // AWS's documented AKIA…EXAMPLE and …EXAMPLEKEY values
    '^(?:sk|pk|rk)_test_', // Stripe test mode (the issue lists these as accepted)
    'x{4,}', '\\*{3,}', '•{3,}', '0{10,}', '(?:0123456789|1234567890){1}', 'abcdef(?:ghij|1234)',
    'your[-_ ]?(?:[a-z]+[-_ ]?){0,3}(?:here|key|token|secret|password)', '<[^>]{1,40}>', '\\$\\{[^}]{1,60}\\}',
    '\\{\\{[^}]{1,60}\\}\\}', '\\bREPLACE[_-]?ME\\b', '\\bCHANGE[_-]?ME\\b', 'placeholder', 'redacted', 'not[-_]a[-_]real', '^\\$[A-Z_]{2,}$',
  ].join('|'),
  'i',
);

/** A documentation example or a placeholder rather than a real credential. */
export function isDocumentationValue(value: string): boolean {
  return isPlaceholder(value) || DOCUMENTATION_VALUE.test(value) || SPELLED_OUT.test(value);
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(value)).length;
}

/**
 * A free-form value (after a credential word, a password flag, a header) that looks chosen or
 * generated rather than like a word, an identifier, a reference or a placeholder.
 */
export function looksLikeCredential(raw: string, minLength = 8): boolean {
  const value = raw.replace(/[.,;:!?)\]}*_~]+$/, ''); // trailing punctuation and Markdown emphasis
  if (value.length < minLength || value.length > 512 || isDocumentationValue(value)) return false;
  // References and code: variables, interpolation, calls, paths, URLs, member access.
  if (/^[$%<{(/~&?=:;,|@#.\\[]|\$\{|\$\(|:\/\/|[()[\]{}]/.test(value)) return false;
  // Comment delimiters: a line-joined view running a comment's last word into the code after it.
  if (/\*\/|\/\*|\/\/|-->/.test(value)) return false;
  // Type syntax (`Exclude<T, U>`) and camelCase identifiers (`pemEncodedPrivateKey`) are code.
  if (/[<>]/.test(value) || /^[a-z]+(?:[A-Z][a-z]{2,}|\d)*(?:[A-Z][a-z]{2,})+$/.test(value)) return false;
  if (/^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$/.test(value)) return false; // config.db.password
  if (/^[A-Za-z_][A-Za-z_.-]{2,}=/.test(value)) return false; // password=… (a key, then its own value)
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false; // DB_PASSWORD (a variable name)
  if (!/[A-Za-z]/.test(value) || WORDS.test(value)) return false;
  const classes = characterClasses(value);
  if (classes < 2 || entropy(value) < 2.5) return false;
  // Letters only (camelCase identifiers, words) count only when long and mixed like generated text.
  if (!/[\d\W_]/.test(value)) return value.length >= 20 && classes >= 2 && entropy(value) >= 3.5;
  return true;
}

/** A secret assignment's value is a literal that looks generated, not code, prose or a placeholder. */
function acceptAssignment(match: RegExpExecArray): boolean {
  const quoted = match[1];
  const value = quoted ?? match[2] ?? '';
  // An empty value followed by an escaped line break (`KEY=\nNEXT=…` inside a string literal).
  if (/^\\[nrt]/.test(value)) return false;
  if (value.length < 8 || isDocumentationValue(value) || entropy(value) < 3) return false;
  if (quoted !== undefined) return characterClasses(value.replace(/[^A-Za-z0-9]/g, '')) >= 2;
  // A bare value must not be code: no call, member access, interpolation or reference.
  const next = match.input[match.index + match[0].length] ?? '';
  if (next === '(' || /[.([{$<>]/.test(value) || /^[A-Za-z_][A-Za-z_.-]{2,}=/.test(value)) return false;
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** Words joined by hyphens or underscores (`short-lived`, `wrong_token_value`): wording, not a key. */
const WORDS = /^[a-z]+(?:[-_][a-z]+)+$/i;
/** Three or more lowercase words joined by hyphens after a prefix (`xoxb-not-a-real-token`): a stand-in. */
const SPELLED_OUT = /^[a-z]+[-_](?:[a-z]+[-_]){2,}[a-z]+$/;

/**
 * An HTTP credential header's value: Basic must decode to `user:password`; other schemes need a
 * value that looks generated.
 */
function acceptHeaderValue(header: string, value: string): boolean {
  if (isDocumentationValue(value) || /^[$%{<]/.test(value) || WORDS.test(value)) return false;
  if (/\bbasic\s/i.test(header)) return Buffer.from(value, 'base64').toString('utf8').includes(':');
  return value.length >= 12 ? entropy(value) >= 3 : looksLikeCredential(value, 8);
}

/** The sample token of jwt.io and the JWT specifications (John Doe, subject 1234567890). */
function isDocumentationJwt(jwt: string): boolean {
  const payload = Buffer.from((jwt.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  return /"sub"\s*:\s*"1234567890"|John Doe|example\.(?:com|org)|"iss"\s*:\s*"joe"/.test(payload);
}

/** The match is not a documentation example. */
const notExample = (m: RegExpExecArray) => !isDocumentationValue(m[0]);
/** The last capture group holds a value that looks like a credential. */
const lastGroupLooksReal = (m: RegExpExecArray) => looksLikeCredential(lastGroup(m), 6);

function lastGroup(m: RegExpExecArray): string {
  for (let i = m.length - 1; i > 0; i--) if (m[i] !== undefined) return m[i] ?? '';
  return m[0];
}

/** Mixed letters and digits (random bodies have both; words and version strings rarely do). */
const mixed = (m: RegExpExecArray) => notExample(m) && /\d/.test(m[0]) && /[A-Za-z]/.test(m[0]);

/** Words for a credential, in English, French, Spanish, German, Italian, Portuguese, Chinese, Japanese, Korean. */
const CREDENTIAL_WORD = [
  'pass(?:word|wd|phrase|code)?', 'pwd', 'mot de passe', 'mdp', 'contrase[ñn]a', 'clave', 'passwort', 'kennwort',
  'senha', 'parola d\'ordine', 'secret', 'secreto', 'segreto', 'geheimnis', 'token', 'jeton', 'api[ _-]?key', 'apikey',
  'access[ _-]?key', 'private[ _-]?key', 'secret[ _-]?key', 'cl[ée](?: d\'api| secr[èe]te| priv[ée]e)?', 'llave',
  'schl[üu]ssel', 'zugangsdaten', 'credentials?', 'identifiants?', 'chiave', 'auth[ _-]?(?:token|key|code)',
].join('|');
const CJK_CREDENTIAL_WORD = '密码|密碼|口令|密钥|密鑰|秘钥|令牌|秘密|私钥|凭证|パスワード|暗証番号|暗証|秘密鍵|合言葉|トークン|キー|鍵|비밀번호|암호|토큰';
/** What may stand between the word and its value: a copula, a colon, an arrow, a few words. */
const CONNECTOR
  = '(?:[ \\t]+(?:for|of|to|pour|de|du|la|le|del|para|für|fur|von|des|der|the|our|my|its|this|that|[\\p{L}\\p{N}][\\p{L}\\p{N}\'’_-]{0,19}?)(?=[ \\t:=])){0,4}?'
    + '[ \\t]*(?:(?:is|was|are|will be|set to|now|became|est|était|etait|sera|c\'est|es|era|será|ist|lautet|war|è)(?![\\p{L}\\d_])[ \\t]*:?|[:=]|=>|->|→)[ \\t]*';
const CJK_CONNECTOR = '[ \\t]*(?:是|为|為|は|が|を|:|=|는|은|：)?[ \\t]*(?:「|『|“)?';
const VALUE = '["\'`«“「『]?([^\\s"\'`»”」』,;]{6,200}?)(?=["\'`»”」』]|[.,;!?)]?(?:\\s|$)|[,;])';

const PROVIDER_RULES: Omit<PatternRule, 'group' | 'action' | 'kind'>[] = [
  {
    id: 'secret.aws-access-key',
    needs: /A(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|IPA|NPA|NVA|PKA)/,
    description: 'AWS access key id (AKIA/ASIA… followed by 16 characters)',
    patterns: [/\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Z0-9])/g],
    accept: notExample,
  },
  {
    id: 'secret.aws-secret-key',
    needs: /aws_?secret/i,
    description: 'AWS secret access key assigned to an aws_secret… name',
    patterns: [/\baws_?(?:secret_?(?:access_?)?key|secret)\b["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi],
    accept: notExample,
  },
  {
    id: 'secret.github-token',
    needs: /gh[pousr]_|github_pat_/,
    description: 'GitHub personal, OAuth, app or refresh token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    patterns: [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, /\bgithub_pat_[A-Za-z0-9_]{50,}\b/g],
  },
  {
    id: 'secret.gitlab-token',
    needs: /\bgl[a-z]{1,5}-/,
    description: 'GitLab personal, deploy, pipeline or runner token (glpat-, gldt-, glptt-, glrt-)',
    patterns: [/\bgl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_-]{20,}/g],
  },
  {
    id: 'secret.openai-key',
    needs: /sk-/,
    description: 'OpenAI API key (sk-, sk-proj-, sk-svcacct-)',
    patterns: [/\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g],
    accept: mixed,
  },
  {
    id: 'secret.anthropic-key',
    needs: /sk-ant-/,
    description: 'Anthropic API or admin key (sk-ant-…)',
    patterns: [/\bsk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{32,}/g],
  },
  {
    id: 'secret.slack-token',
    needs: /xox|xapp-|hooks\.slack/,
    description: 'Slack bot, user, app, config or refresh token (xox…, xapp-) and incoming-webhook or workflow URL',
    patterns: [
      /\bxox[abposre]-(?:\d+-)*[A-Za-z0-9]{10,}(?:-[A-Za-z0-9]+)*/g,
      /\bxoxe\.xox[bp]-\d-[A-Za-z0-9]{40,}/g,
      /\bxapp-\d-[A-Z0-9]{8,14}-\d{8,16}-[a-f0-9]{40,64}\b/g,
      /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Z0-9]+\/[A-Z0-9]+\/[A-Za-z0-9/]{16,}/g,
    ],
  },
  {
    id: 'secret.stripe-key',
    needs: /_live_|whsec_/,
    description: 'Stripe live secret or restricted key and webhook secret (test-mode keys are accepted)',
    patterns: [/\b(?:sk|rk)_live_[A-Za-z0-9]{16,}\b/g, /\bwhsec_[A-Za-z0-9]{32,}\b/g],
  },
  {
    id: 'secret.google-key',
    needs: /AIza|GOCSPX-/,
    description: 'Google API key (AIza…) and OAuth client secret (GOCSPX-)',
    patterns: [/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g],
  },
  {
    id: 'secret.chat-platform',
    needs: /\.[A-Za-z0-9_-]{6}\.|discord|:AA|webhook/i,
    description: 'Chat-platform bot tokens and webhooks: Discord bot token and webhook, Telegram bot token, Microsoft Teams and Office 365 incoming webhooks',
    patterns: [
      /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
      /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{16,20}\/[A-Za-z0-9_-]{60,70}/g,
      /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
      /https:\/\/[a-z0-9-]+\.webhook\.office\.com\/webhookb2\/[0-9a-f-]{36}@[0-9a-f-]{36}\/IncomingWebhook\/[0-9a-f]{32}\/[0-9a-f-]{36}(?:\/[A-Za-z0-9_-]+)?/gi,
      /https:\/\/outlook\.office(?:365)?\.com\/webhook\/[0-9a-f-]{36}@[0-9a-f-]{36}\/IncomingWebhook\/[0-9a-f]{32}\/[0-9a-f-]{36}/gi,
    ],
    accept: mixed,
  },
  {
    id: 'secret.package-registry',
    needs: /npm_|pypi-|rubygems_|oy2|cio|dckr_|AKCp|CLOJARS_/,
    description: 'Package-registry tokens: npm, PyPI, RubyGems, NuGet, crates.io, Docker Hub, JFrog, Clojars',
    patterns: [
      /\bnpm_[A-Za-z0-9]{36}\b/g,
      /\bpypi-AgE[A-Za-z0-9_-]{60,}/g,
      /\brubygems_[a-f0-9]{48}\b/g,
      /\boy2[a-z0-9]{43}\b/g,
      /\bcio[A-Za-z0-9]{32}\b/g,
      /\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}/g,
      /\bAKCp[A-Za-z0-9]{69}\b/g,
      /\bCLOJARS_[a-z0-9]{60}\b/g,
    ],
    accept: notExample,
  },
  {
    id: 'secret.secret-manager',
    needs: /hv[sbr]\.|\bs\.|dp\.|ops_|A3-|\bst\./,
    description: 'Secret-manager tokens: HashiCorp Vault (hvs., hvb., hvr., legacy s.), Doppler (dp.st., dp.pt.…), 1Password service account and secret key, Infisical service token',
    patterns: [
      /\bhv[sbr]\.[A-Za-z0-9_-]{90,}/g,
      /\bs\.[A-Za-z0-9]{24}\b(?!\.)/g,
      /\bdp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}\b/g,
      /\bops_eyJ[A-Za-z0-9+/_-]{100,}={0,3}/g,
      /\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/g,
      /\bst\.[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\.[0-9a-f]{32}\.[0-9a-f]{32}\b/g,
    ],
    accept: mixed,
  },
  {
    id: 'secret.twilio',
    needs: /SK|AC|auth|twilio/i,
    description: 'Twilio API key (SK…), and an account SID (AC…) with its 32-hex auth token',
    patterns: [
      /\bSK[0-9a-f]{32}\b/g,
      /\bAC[0-9a-f]{32}\b[^\n]{0,120}?(?<![\w])[0-9a-f]{32}\b/g,
      /\b(?:auth[_ -]?token|authtoken|twilio[_ -]?(?:auth|token|secret))\b\W{0,6}[0-9a-f]{32}\b/gi,
    ],
    accept: (m) => !/^AC/.test(m[0]) || /auth|token|secret|:[0-9a-f]{32}$|\bpass/i.test(m[0].slice(34)),
  },
  {
    id: 'secret.azure',
    needs: /AccountKey=|SharedAccessKey=|sig=|Q~/i,
    description: 'Azure storage account and shared access keys, SAS signatures (sig=), Azure AD client secrets',
    patterns: [
      /\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{42,86}={0,2}/g,
      /[?&;]sig=[A-Za-z0-9%+/]{30,}(?:%3D|=){0,2}/gi,
      /(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])/g,
    ],
    accept: notExample,
  },
  {
    id: 'secret.provider-token',
    needs: /hf_|SG\.|shp|do[por]_v1_|key-|-us\d|ATATT3|PMAK-|HRKU-|LTAI|sntry|sbp_|pscale_|pul-|atlasv1|NRAK-|xkeysib-|sq0|sk\.eyJ/,
    description:
      'Other provider tokens: Hugging Face, SendGrid, Shopify, DigitalOcean, Mailgun, Mailchimp, Atlassian, Postman, Heroku, Alibaba, Sentry, Supabase, PlanetScale, Pulumi, Terraform Cloud, New Relic, Brevo, Square, Mapbox',
    patterns: [
      /\bhf_[A-Za-z0-9]{34,}\b/g,
      /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
      /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/g,
      /\bdo[por]_v1_[a-f0-9]{64}\b/g,
      /\bkey-[0-9a-f]{32}\b/g,
      /\b[0-9a-f]{32}-us\d{1,2}\b/g,
      /\bATATT3[A-Za-z0-9_=-]{150,}/g,
      /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g,
      /\bHRKU-[A-Za-z0-9_-]{40,}/g,
      /\bLTAI[A-Za-z0-9]{20}\b/g,
      /\bsntry[su]_[A-Za-z0-9+/=_]{40,}/g,
      /\bsbp_[a-f0-9]{40}\b/g,
      /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}/g,
      /\bpul-[a-f0-9]{40}\b/g,
      /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}/g,
      /\bNRAK-[A-Z0-9]{27}\b/g,
      /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g,
      /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}(?![A-Za-z0-9_-])/g,
      /\bsk\.eyJ[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{20,}/g,
    ],
    accept: notExample,
  },
  {
    id: 'secret.private-key',
    needs: /BEGIN|PuTTY|AGE-SECRET|Key\s*=/,
    description: 'Private key block in any style: PEM (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), SSH2, PuTTY key file, age secret key, WireGuard private key',
    patterns: [
      // The whole block, so that no excerpt can show a line of the key.
      /-{4,5} ?BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)? ?-{4,5}[\s\S]*?(?:-{4,5} ?END [A-Z0-9 ]{0,40}-{4,5}|$)/g,
      /PuTTY-User-Key-File-\d+:[\s\S]*/g,
      /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g,
      /(?:PrivateKey|PresharedKey)\s*=\s*[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=/g,
    ],
    accept: (m) => !/BEGIN/.test(m[0].slice(0, 12)) || /[A-Za-z0-9+/=]{32}/.test(m[0].replace(/\\n|\s/g, '')),
  },
  {
    id: 'secret.jwk',
    description: 'JSON Web Key holding private material (a "kty" object with "d", "p", "q" or a symmetric "k")',
    needs: /kty/,
    patterns: [/\{[^{}]{0,4000}?\\?"kty\\?"[^{}]{0,4000}\}/g],
    accept: (m) => /\\?"(?:d|p|q|dp|dq|qi|k)\\?"\s*:\s*\\?"[A-Za-z0-9_-]{16,}/.test(m[0]),
  },
  {
    id: 'secret.jwt',
    needs: /eyJ/,
    description: 'JSON Web Token (three base64url segments, header and payload starting eyJ)',
    patterns: [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g],
    accept: (m) => !isDocumentationJwt(m[0]),
  },
];

const STRUCTURAL_RULES: Omit<PatternRule, 'group' | 'action' | 'kind'>[] = [
  {
    id: 'secret.url-credentials',
    description: 'Password inside a URL or connection URI of any scheme (scheme://user:password@host)',
    needs: /:\/\/[^\s]*@/,
    patterns: [/\b[a-z][a-z0-9+.-]{1,30}:\/\/([^\s/:@'"]*):([^\s'"]{1,256})@[A-Za-z0-9[][A-Za-z0-9.:\]-]*/gi],
    accept: (m: RegExpExecArray) => {
      const password = m[2] ?? '';
      return password.length >= 3 && !isDocumentationValue(password) && !/^[$%{<]/.test(password) && !/^\*+$/.test(password);
    },
  },
  {
    id: 'secret.connection-string',
    description: 'Password field of a database connection string (semicolon-separated key=value pairs)',
    needs: /p(?:ass)?w(?:or)?d\s*=/i,
    patterns: [
      /\b(?:server|data source|host|database|initial catalog|user id|uid|user)\s*=\s*[^;\n]+;[^\n]*?\b(?:password|pwd)\s*=\s*([^;'"\s]+)/gi,
    ],
    accept: (m: RegExpExecArray) => !isDocumentationValue(m[1] ?? '') && !/^[$%{<]/.test(m[1] ?? ''),
  },
  {
    id: 'secret.npmrc',
    description: '.npmrc credentials: _auth, _authToken or _password with a literal value',
    needs: /_(?:auth|password)/i,
    patterns: [/(?<![A-Za-z0-9])(?:\/\/[^\s=]*:)?_(?:auth|authToken|password)\s*=\s*["']?([^\s"']{6,})/gim],
    accept: (m) => !isDocumentationValue(m[1] ?? '') && !/^[$%{<]/.test(m[1] ?? ''),
  },
  {
    id: 'secret.docker-auth',
    description: 'Docker config credentials: an "auths" entry with an "auth" or "identitytoken" value',
    needs: /auths/,
    patterns: [/\\?"auths\\?"\s*:\s*\{[\s\S]{0,600}?\\?"(?:auth|identitytoken|password)\\?"\s*:\s*\\?"([^"\\]{8,})\\?"/g],
    accept: (m) => !isDocumentationValue(m[1] ?? ''),
  },
  {
    id: 'secret.http-header',
    needs: /authorization|-key|-token|apikey/i,
    complements: true,
    description: 'Credentials in an HTTP header: Authorization (Basic, Bearer, Token…, any case) or an API-key header',
    patterns: [
      /\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?(?:basic|bearer|token|digest|bot|apikey|api-key|sswss?|oauth|dpop|hmac|aws4-hmac-sha256)\s+([A-Za-z0-9+/=._~:,-]{8,})/gi,
      /\b(?:x-api-key|x-api-token|x-auth-token|x-access-token|api-key|apikey|x-secret|private-token|x-vault-token|x-shopify-access-token|x-figma-token|x-goog-api-key|ocp-apim-subscription-key|x-auth-key|x-gitlab-token|x-postmark-server-token|x-functions-key|x-master-key|x-token)\s*:\s*["']?([A-Za-z0-9+/=._~-]{8,})/gi,
    ],
    accept: (m) => acceptHeaderValue(m[0], m[1] ?? ''),
  },
  {
    id: 'secret.command-line',
    needs: /sshpass|mysql|mariadb|--|curl|wget|http|PGPASS|MYSQL_|REDISCLI|SSHPASS|MONGO_|docker|htpasswd/,
    complements: true,
    description: 'Credentials given to a command: password flags of sshpass, mysql and docker login, password and token options, curl user options, PGPASSWORD-style variables, htpasswd batch mode',
    patterns: [
      /\bsshpass\s+(?:-[a-oq-zA-Z]\S*\s+)*-p\s*(["']?)([^\s"']+)\1/g,
      /\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?\s-p(["']?)([^\s"']{3,})\1/g,
      /(?:^|\s)--(?:password|passwd|pass|token|api-key|apikey|api-token|secret|client-secret|access-token|auth-token|http-password|ftp-password|db-password|registry-password)(?:=|\s+)(["']?)([^\s"']+)\1/gim,
      /\b(?:curl|wget|http|httpie)\b[^\n|;&]{0,200}?\s(?:-u|--user)\s*(["']?)[^\s:"']+:([^\s"']+)\1/g,
      /\b(?:PGPASSWORD|MYSQL_PWD|MYSQL_PASSWORD|REDISCLI_AUTH|SSHPASS|PGPASS|MONGO_PASSWORD)=(["']?)([^\s"']+)\1/g,
      /\bdocker\s+login\b[^\n|;&]{0,200}?\s(?:-p|--password)(?:=|\s+)(["']?)([^\s"']+)\1/g,
      /\bhtpasswd\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*b[a-zA-Z]*\s+(?:-[a-zA-Z]+\s+)*\S+\s+\S+\s+(["']?)([^\s"']+)\1/g,
    ],
    accept: (m) => {
      const value = lastGroup(m);
      // A plain word (`--password prompt`) is an argument, not a credential.
      if (value.length < 4 || /^[A-Za-z]+$/.test(value) || !/[A-Za-z0-9]/.test(value)) return false;
      return !isDocumentationValue(value) && !/^[$%{<*-]/.test(value);
    },
  },
  {
    id: 'secret.credential-phrase',
    needs: /pass|pwd|mot de|mdp|contrase|clave|kennwort|senha|parola|secre|segre|geheim|token|jeton|key|cl[ée]|llave|schl|zugang|credential|identifiant|chiave|auth|密|口令|令牌|秘|凭证|パスワード|暗証|鍵|トークン|キー|비밀|암호|토큰/i,
    complements: true,
    description:
      'A generated-looking value next to a credential word (password, token, secret, key…) in English, French, Spanish, German, Chinese, Japanese and other languages, in prose or in labels',
    patterns: [
      new RegExp(`(?<![\\p{L}\\d_])(?:${CREDENTIAL_WORD})(?![\\p{L}\\d_-])${CONNECTOR}${VALUE}`, 'giu'),
      new RegExp(`(?:${CJK_CREDENTIAL_WORD})${CJK_CONNECTOR}([A-Za-z0-9!#$%&*+./:=?@^_~-]{6,200})`, 'gu'),
    ],
    accept: lastGroupLooksReal,
  },
  {
    id: 'secret.assignment',
    description:
      'password=, secret=, api_key=, token= and similar assignments whose value looks generated (long, high entropy)',
    needs: /(?:pass|pwd|secret|key|token)\w*["']?\s*[:=]/i,
    patterns: [
      /\b[A-Za-z0-9_.-]*?(?:password|passwd|pwd|(?:secret|signing|encryption|master|private)[_-]?key|secret|api[_-]?key|apikey|access[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|bearer[_-]?token|client[_-]?secret|private[_-]?key|token)["']?\s*(?::=|=>|[:=])[ \t]*(?:["'`]([^"'`\s]{1,256})["'`]|([^\s"'`,;)}\]]{1,256}))/gi,
    ],
    accept: acceptAssignment,
  },
];

/** Every secret rule of our own, provider formats first. */
export const SECRET_RULES: readonly PatternRule[] = Object.freeze(
  [...PROVIDER_RULES, ...STRUCTURAL_RULES].map((rule) => {
    const own = rule.accept;
    // Published examples and placeholders never count (a key block is judged by its own check).
    const accept = rule.id === 'secret.private-key' || rule.id === 'secret.jwk' || own === notExample
      ? own
      : (m: RegExpExecArray) => notExample(m) && (own === undefined || own(m));
    return { ...rule, accept, group: 'secret', action: 'reject', kind: 'token' } as PatternRule;
  }),
);
