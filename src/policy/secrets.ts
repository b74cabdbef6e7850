/**
 * The secret rules of the write policy: provider token formats and private keys in every block
 * style (`secret-providers.ts`), and generic detectors — a generated-looking value next to a
 * credential word in several languages, credentials in command lines, HTTP headers, `.npmrc`,
 * Docker `auths` and URLs. secretlint's maintained preset runs beside these
 * (src/policy/secretlint.ts).
 *
 * Documentation example values and placeholders are accepted: every rule's match goes through
 * `isDocumentationValue` (`secret-values.ts`) or its own `accept` check. Descriptions name what a
 * rule catches without quoting a triggering value, so that this file passes the policy itself.
 */
import { lazyRule } from './lazy-rule.js';
import type { PatternRule } from './rules.js';
import { PROVIDER_RULES, type SecretRuleSpec } from './secret-providers.js';
import {
  acceptAssignment, acceptHeaderValue, isDocumentationValue, lastGroup, lastGroupLooksReal, notExample,
} from './secret-values.js';

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

const STRUCTURAL_RULES: SecretRuleSpec[] = [
  {
    id: 'secret.url-credentials',
    description: 'Password inside a URL or connection URI of any scheme (scheme://user:password@host)',
    needs: () => /:\/\/[^\s]*@/,
    patterns: () => [/\b[a-z][a-z0-9+.-]{1,30}:\/\/([^\s/:@'"]*):([^\s'"]{1,256})@[A-Za-z0-9[][A-Za-z0-9.:\]-]*/gi],
    accept: (m: RegExpExecArray) => {
      const password = m[2] ?? '';
      return password.length >= 3 && !isDocumentationValue(password) && !/^[$%{<]/.test(password) && !/^\*+$/.test(password);
    },
  },
  {
    id: 'secret.connection-string',
    description: 'Password field of a database connection string (semicolon-separated key=value pairs)',
    needs: () => /p(?:ass)?w(?:or)?d\s*=/i,
    patterns: () => [
      /\b(?:server|data source|host|database|initial catalog|user id|uid|user)\s*=\s*[^;\n]+;[^\n]*?\b(?:password|pwd)\s*=\s*([^;'"\s]+)/gi,
    ],
    accept: (m: RegExpExecArray) => !isDocumentationValue(m[1] ?? '') && !/^[$%{<]/.test(m[1] ?? ''),
  },
  {
    id: 'secret.npmrc',
    description: '.npmrc credentials: _auth, _authToken or _password with a literal value',
    needs: () => /_(?:auth|password)/i,
    patterns: () => [/(?<![A-Za-z0-9])(?:\/\/[^\s=]*:)?_(?:auth|authToken|password)\s*=\s*["']?([^\s"']{6,})/gim],
    accept: (m) => !isDocumentationValue(m[1] ?? '') && !/^[$%{<]/.test(m[1] ?? ''),
  },
  {
    id: 'secret.docker-auth',
    description: 'Docker config credentials: an "auths" entry with an "auth" or "identitytoken" value',
    needs: () => /auths/,
    patterns: () => [/\\?"auths\\?"\s*:\s*\{[\s\S]{0,600}?\\?"(?:auth|identitytoken|password)\\?"\s*:\s*\\?"([^"\\]{8,})\\?"/g],
    accept: (m) => !isDocumentationValue(m[1] ?? ''),
  },
  {
    id: 'secret.http-header',
    needs: () => /authorization|-key|-token|apikey/i,
    complements: true,
    description: 'Credentials in an HTTP header: Authorization (Basic, Bearer, Token…, any case) or an API-key header',
    patterns: () => [
      /\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?(?:basic|bearer|token|digest|bot|apikey|api-key|sswss?|oauth|dpop|hmac|aws4-hmac-sha256)\s+([A-Za-z0-9+/=._~:,-]{8,})/gi,
      /\b(?:x-api-key|x-api-token|x-auth-token|x-access-token|api-key|apikey|x-secret|private-token|x-vault-token|x-shopify-access-token|x-figma-token|x-goog-api-key|ocp-apim-subscription-key|x-auth-key|x-gitlab-token|x-postmark-server-token|x-functions-key|x-master-key|x-token)\s*:\s*["']?([A-Za-z0-9+/=._~-]{8,})/gi,
    ],
    accept: (m) => acceptHeaderValue(m[0], m[1] ?? ''),
  },
  {
    id: 'secret.command-line',
    needs: () => /sshpass|mysql|mariadb|--|curl|wget|http|PGPASS|MYSQL_|REDISCLI|SSHPASS|MONGO_|docker|htpasswd/,
    complements: true,
    description: 'Credentials given to a command: password flags of sshpass, mysql and docker login, password and token options, curl user options, PGPASSWORD-style variables, htpasswd batch mode',
    patterns: () => [
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
    // From a string, so that the bundle, which writes what lies outside ASCII in expressions as
    // escapes, keeps this source, and with it the fingerprint of the generated screen tables.
    needs: () => new RegExp(['pass|pwd|mot de|mdp|contrase|clave|kennwort|senha|parola|secre|segre|geheim|token|jeton|key',
      'cl[ée]|llave|schl|zugang|credential|identifiant|chiave|auth|密|口令|令牌|秘|凭证|パスワード|暗証|鍵|トークン|キー',
      '비밀|암호|토큰'].join('|'), 'i'),
    complements: true,
    description:
      'A generated-looking value next to a credential word (password, token, secret, key…) in English, French, Spanish, German, Chinese, Japanese and other languages, in prose or in labels',
    patterns: () => [
      new RegExp(`(?<![\\p{L}\\d_])(?:${CREDENTIAL_WORD})(?![\\p{L}\\d_-])${CONNECTOR}${VALUE}`, 'giu'),
      new RegExp(`(?:${CJK_CREDENTIAL_WORD})${CJK_CONNECTOR}([A-Za-z0-9!#$%&*+./:=?@^_~-]{6,200})`, 'gu'),
    ],
    accept: lastGroupLooksReal,
  },
  {
    id: 'secret.assignment',
    description:
      'password=, secret=, api_key=, token= and similar assignments whose value looks generated (long, high entropy)',
    needs: () => /(?:pass|pwd|secret|key|token)\w*["']?\s*[:=]/i,
    patterns: () => [
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
    return lazyRule({ ...rule, accept, group: 'secret', action: 'reject', kind: 'token' });
  }),
);
