/**
 * The generated secret corpus: real credential formats (prefixes, lengths, alphabets and, where a
 * format has one, its structure) with seeded random bodies, each hidden in many wrappings — prose
 * in several languages, config files, command lines, headers, encodings, splits, look-alike
 * letters. Nothing here is a literal secret: every value is built at run time from pieces.
 */
import { type AdversarialCase, randomChars, seeded } from './case.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
/** Password characters: letters, digits and the symbols people and generators use. */
const PASSWORD = `${ALNUM}!#%&*+-=?@^_~`;

type Random = () => number;

interface Made {
  /** The credential as a whole, in the form the wrappings embed. */
  snippet: string;
  /** The part that must never be stored or shown. */
  secret: string;
}

interface Format {
  name: string;
  make: (r: Random) => Made;
}

const rc = (r: Random, n: number, alphabet = ALNUM) => randomChars(r, n, alphabet);
/** A password a person or a generator would pick: letters, a digit and a symbol, 12–20 characters. */
const password = (r: Random) => `${rc(r, 4, UPPER)}${rc(r, 4, LOWER)}${rc(r, 2, DIGITS)}${rc(r, 2 + Math.floor(r() * 8), PASSWORD)}`;
const uuid = (r: Random) => [8, 4, 4, 4, 12].map((n) => rc(r, n, HEX)).join('-');
const b64 = (text: string) => Buffer.from(text).toString('base64');
/** A bare token is both the snippet and the secret. */
const token = (make: (r: Random) => string) => (r: Random): Made => {
  const value = make(r);
  return { snippet: value, secret: value };
};
const DASH5 = '-'.repeat(5);
/** A PEM block of `kind` with `lines` lines of base64 (64 wide); the header is built from pieces. */
const pem = (kind: string, lines: number, header = '') => (r: Random): Made => {
  const body = Array.from({ length: lines }, () => rc(r, 64, B64)).join('\n');
  const label = `${kind ? `${kind} ` : ''}PRIV${'ATE'} KEY`;
  const block = `${DASH5}BEG${'IN'} ${label}${DASH5}\n${header}${body}\n${rc(r, 20, B64)}==\n${DASH5}END ${label}${DASH5}`;
  return { snippet: block, secret: body.split('\n')[1] ?? body };
};
const labelled = (label: string, make: (r: Random) => string) => (r: Random): Made => {
  const value = make(r);
  return { snippet: `${label}${value}`, secret: value };
};

const FORMATS: Format[] = [
  { name: 'aws access key id', make: token((r) => `AK${'IA'}${rc(r, 16, UPPER + DIGITS)}`) },
  { name: 'aws secret access key', make: labelled(`aws_secret_${'access_key'} = `, (r) => rc(r, 40, B64)) },
  { name: 'github classic pat', make: token((r) => `gh${'p_'}${rc(r, 36)}`) },
  { name: 'github oauth', make: token((r) => `gh${'o_'}${rc(r, 36)}`) },
  { name: 'github app', make: token((r) => `gh${'s_'}${rc(r, 36)}`) },
  { name: 'github refresh', make: token((r) => `gh${'r_'}${rc(r, 36)}`) },
  { name: 'github user-to-server', make: token((r) => `gh${'u_'}${rc(r, 36)}`) },
  { name: 'github fine-grained pat', make: token((r) => `github${'_pat_'}${rc(r, 22)}_${rc(r, 59)}`) },
  { name: 'gitlab pat', make: token((r) => `gl${'pat-'}${rc(r, 20, `${ALNUM}_-`)}`) },
  { name: 'gitlab runner', make: token((r) => `gl${'rt-'}${rc(r, 20, `${ALNUM}_-`)}`) },
  { name: 'gitlab deploy', make: token((r) => `gl${'dt-'}${rc(r, 20, `${ALNUM}_-`)}`) },
  { name: 'openai project key', make: token((r) => `s${'k-proj-'}${rc(r, 48, `${ALNUM}_-`)}`) },
  { name: 'openai legacy key', make: token((r) => `s${'k-'}${rc(r, 20)}T3Blbk${'FJ'}${rc(r, 20)}`) },
  { name: 'anthropic api key', make: token((r) => `s${'k-ant-api03-'}${rc(r, 93, `${ALNUM}_-`)}AA`) },
  { name: 'anthropic admin key', make: token((r) => `s${'k-ant-admin01-'}${rc(r, 93, `${ALNUM}_-`)}AA`) },
  { name: 'slack bot token', make: token((r) => `xo${'xb-'}${rc(r, 11, DIGITS)}-${rc(r, 13, DIGITS)}-${rc(r, 24)}`) },
  { name: 'slack user token', make: token((r) => `xo${'xp-'}${rc(r, 11, DIGITS)}-${rc(r, 12, DIGITS)}-${rc(r, 13, DIGITS)}-${rc(r, 32, HEX)}`) },
  { name: 'slack app token', make: token((r) => `xa${'pp-1-'}A${rc(r, 10, UPPER + DIGITS)}-${rc(r, 13, DIGITS)}-${rc(r, 64, HEX)}`) },
  { name: 'slack webhook', make: token((r) => `https://hooks.${'slack'}.com/services/T${rc(r, 8, UPPER + DIGITS)}/B${rc(r, 10, UPPER + DIGITS)}/${rc(r, 24)}`) },
  { name: 'stripe live secret', make: token((r) => `s${'k_live_'}${rc(r, 24)}`) },
  { name: 'stripe restricted', make: token((r) => `r${'k_live_'}${rc(r, 24)}`) },
  { name: 'stripe webhook secret', make: token((r) => `wh${'sec_'}${rc(r, 32)}`) },
  { name: 'google api key', make: token((r) => `AI${'za'}Sy${rc(r, 33, `${ALNUM}_-`)}`) },
  { name: 'google oauth secret', make: token((r) => `GOC${'SPX-'}${rc(r, 28, `${ALNUM}_-`)}`) },
  { name: 'npm token', make: token((r) => `np${'m_'}${rc(r, 36)}`) },
  { name: 'hugging face token', make: token((r) => `h${'f_'}${rc(r, 34, UPPER + LOWER)}`) },
  { name: 'sendgrid key', make: token((r) => `S${'G.'}${rc(r, 22, `${ALNUM}_-`)}.${rc(r, 43, `${ALNUM}_-`)}`) },
  { name: 'twilio api key', make: token((r) => `S${'K'}${rc(r, 32, HEX)}`) },
  {
    name: 'twilio sid + auth token',
    make: (r) => {
      const secret = rc(r, 32, HEX);
      return { snippet: `Twilio account A${'C'}${rc(r, 32, HEX)} with auth token ${secret}`, secret };
    },
  },
  { name: 'shopify token', make: token((r) => `shp${'at_'}${rc(r, 32, HEX)}`) },
  { name: 'digitalocean token', make: token((r) => `do${'p_v1_'}${rc(r, 64, HEX)}`) },
  { name: 'mailgun key', make: token((r) => `ke${'y-'}${rc(r, 32, HEX)}`) },
  { name: 'mailchimp key', make: token((r) => `${rc(r, 32, HEX)}-u${'s'}${1 + Math.floor(r() * 20)}`) },
  { name: 'telegram bot token', make: token((r) => `${rc(r, 10, DIGITS)}:A${'A'}${rc(r, 33, `${ALNUM}_-`)}`) },
  { name: 'discord bot token', make: token((r) => `M${rc(r, 25, B64URL)}.${rc(r, 6, B64URL)}.${rc(r, 38, B64URL)}`) },
  {
    name: 'discord webhook',
    make: token((r) => `https://discord.com/api/${'webhooks'}/${rc(r, 18, DIGITS)}/${rc(r, 68, B64URL)}`),
  },
  {
    name: 'teams webhook',
    make: token((r) => `https://contoso.${'webhook'}.office.com/webhookb2/${uuid(r)}@${uuid(r)}/Incoming${'Webhook'}/${rc(r, 32, HEX)}/${uuid(r)}`),
  },
  {
    name: 'azure storage connection string',
    make: (r) => {
      const secret = `${rc(r, 86, B64)}==`;
      return { snippet: `DefaultEndpointsProtocol=https;AccountName=acme;Account${'Key'}=${secret};EndpointSuffix=core.windows.net`, secret };
    },
  },
  {
    name: 'azure sas url',
    make: (r) => {
      const secret = `${rc(r, 43, ALNUM)}%3D`;
      return { snippet: `https://acme.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-01T00:00:00Z&spr=https&s${'ig'}=${secret}`, secret };
    },
  },
  { name: 'azure ad client secret', make: token((r) => `${rc(r, 3)}${rc(r, 1, DIGITS)}Q${'~'}${rc(r, 34, `${ALNUM}_~.-`)}`) },
  { name: 'pypi token', make: token((r) => `py${'pi-AgEIcHlwaS5vcmc'}${rc(r, 120, B64URL)}`) },
  { name: 'rubygems key', make: token((r) => `ruby${'gems_'}${rc(r, 48, HEX)}`) },
  { name: 'nuget key', make: token((r) => `o${'y2'}${rc(r, 43, LOWER + DIGITS)}`) },
  { name: 'crates.io token', make: token((r) => `ci${'o'}${rc(r, 32)}`) },
  { name: 'docker hub pat', make: token((r) => `dckr${'_pat_'}${rc(r, 27, B64URL)}`) },
  { name: 'vault service token', make: token((r) => `hv${'s.'}${rc(r, 95, B64URL)}`) },
  { name: 'vault batch token', make: token((r) => `hv${'b.'}${rc(r, 140, B64URL)}`) },
  { name: 'doppler service token', make: token((r) => `dp.${'st'}.prd.${rc(r, 43)}`) },
  { name: '1password service account', make: token((r) => `op${'s_'}eyJ${rc(r, 300, B64)}fQ==`) },
  {
    name: 'infisical service token',
    make: token((r) => `s${'t.'}${uuid(r)}.${rc(r, 32, HEX)}.${rc(r, 32, HEX)}`),
  },
  { name: 'npmrc authToken', make: labelled(`//registry.npmjs.org/:_auth${'Token'}=`, (r) => uuid(r)) },
  { name: 'npmrc auth', make: labelled(`_au${'th'}=`, (r) => b64(`deploy:${password(r)}`)) },
  { name: 'npmrc password', make: labelled(`//npm.acme.dev/:_pass${'word'}=`, (r) => b64(password(r))) },
  {
    name: 'docker config auths',
    make: (r) => {
      const secret = b64(`ci-bot:${password(r)}`);
      return { snippet: `{"au${'ths'}": {"registry.acme.dev": {"au${'th'}": "${secret}"}}}`, secret };
    },
  },
  { name: 'basic auth header', make: labelled(`Author${'ization'}: Basic `, (r) => b64(`svc:${password(r)}`)) },
  { name: 'bearer header', make: labelled(`authori${'zation'}: bearer `, (r) => rc(r, 40, `${ALNUM}._-`)) },
  { name: 'token header', make: labelled(`Author${'ization'}: Token `, (r) => rc(r, 40, HEX)) },
  { name: 'api key header', make: labelled(`X-API-${'Key'}: `, (r) => rc(r, 32)) },
  { name: 'age secret key', make: token((r) => `AGE-SEC${'RET'}-KEY-1${rc(r, 58, BECH32)}`) },
  { name: 'wireguard private key', make: labelled(`[Interface]\nPrivate${'Key'} = `, (r) => `${rc(r, 42, B64)}${rc(r, 1, 'AEIMQUYcgkosw048')}=`) },
  { name: 'rsa private key', make: pem('RSA', 12) },
  { name: 'openssh private key', make: pem('OPENSSH', 6) },
  { name: 'ec private key', make: pem('EC', 3) },
  { name: 'pkcs8 private key', make: pem('', 10) },
  { name: 'encrypted pkcs8 key', make: pem('ENCRYPTED', 10) },
  { name: 'dsa private key', make: pem('DSA', 8) },
  {
    name: 'rsa key encrypted (pem headers)',
    make: pem('RSA', 10, 'Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF\n\n'),
  },
  {
    name: 'pgp private key block',
    make: (r) => {
      const body = Array.from({ length: 8 }, () => rc(r, 64, B64)).join('\n');
      const label = `PGP PRIV${'ATE'} KEY BLOCK`;
      return { snippet: `${DASH5}BEG${'IN'} ${label}${DASH5}\n\n${body}\n=${rc(r, 4, B64)}\n${DASH5}END ${label}${DASH5}`, secret: body.split('\n')[2] ?? body };
    },
  },
  {
    name: 'ssh2 encrypted private key',
    make: (r) => {
      const body = Array.from({ length: 8 }, () => rc(r, 70, B64)).join('\n');
      const label = `SSH2 ENCRYPTED PRIV${'ATE'} KEY`;
      return { snippet: `---- BEG${'IN'} ${label} ----\nComment: "2048-bit rsa"\n${body}\n---- END ${label} ----`, secret: body.split('\n')[2] ?? body };
    },
  },
  {
    name: 'putty key',
    make: (r) => {
      const secret = Array.from({ length: 4 }, () => rc(r, 64, B64)).join('\n');
      const snippet = `PuTTY-User-Key-${'File'}-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n${rc(r, 64, B64)}\n${rc(r, 20, B64)}\nPrivate-Lines: 4\n${secret}\nPrivate-MAC: ${rc(r, 64, HEX)}`;
      return { snippet, secret: secret.split('\n')[1] ?? secret };
    },
  },
  {
    name: 'jwk private key',
    make: (r) => {
      const secret = rc(r, 43, B64URL);
      return { snippet: `{"k${'ty'}": "EC", "crv": "P-256", "x": "${rc(r, 43, B64URL)}", "y": "${rc(r, 43, B64URL)}", "d": "${secret}"}`, secret };
    },
  },
  {
    name: 'jwt',
    make: token((r) => `ey${'J'}hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.ey${'J'}${rc(r, 60, B64URL)}.${rc(r, 43, B64URL)}`),
  },
  { name: 'postgres url', make: (r) => url('postgres', 'app', password(r), 'db.internal:5432/app') },
  { name: 'amqp url with symbols', make: (r) => url('amqp', 'svc', `${password(r)}#!@`, 'rabbit.internal:5672/') },
  { name: 'redis url without user', make: (r) => url('rediss', '', password(r), 'cache.internal:6380/0') },
  {
    name: 'sql server connection string',
    make: (r) => {
      const secret = password(r);
      return { snippet: `Server=tcp:sql.internal,1433;Database=app;User Id=app;Pass${'word'}=${secret};Encrypt=True`, secret };
    },
  },
  { name: 'password in english prose', make: prose(['the', 'staging', 'database', 'pass' + 'word', 'is'].join(' ')) },
  { name: 'password in french prose', make: prose(['le', 'mot', 'de', 'pa' + 'sse', 'du', 'serveur', 'est'].join(' ')) },
  { name: 'password in spanish prose', make: prose(['la', 'contra' + 'seña', 'del', 'servidor', 'es'].join(' ')) },
  { name: 'password in german prose', make: prose(['das', 'Pass' + 'wort', 'für', 'den', 'Server', 'lautet'].join(' ')) },
  { name: 'password in chinese prose', make: prose(['服务器', '密' + '码', '是'].join('')) },
  { name: 'password in japanese prose', make: prose(['サーバーの', 'パス' + 'ワード', 'は'].join('')) },
  { name: 'secret in spanish label', make: prose(['clave', 'secreta:'].join(' ')) },
  { name: 'key in german label', make: prose(['API-Schlüs' + 'sel:'].join(' ')) },
  { name: 'token in french prose', make: prose(['le', 'je' + 'ton', 'd\'accès', 'est'].join(' ')) },
  { name: 'secret key in chinese label', make: prose(['访问', '密' + '钥：'].join('')) },
  { name: 'sshpass command', make: command((s) => `ssh${'pass'} -p '${s}' ssh deploy@10.0.0.5`) },
  { name: 'mysql -p command', make: command((s) => `my${'sql'} -u root -p${s} -h db.internal app`) },
  { name: 'mysql --password command', make: command((s) => `mysql${'dump'} --pass${'word'}=${s} app > app.sql`) },
  { name: 'curl -u command', make: command((s) => `curl -u admin:${s} https://ci.internal/api/json`) },
  { name: 'PGPASSWORD command', make: command((s) => `PGPASS${'WORD'}=${s} psql -h db.internal -U app`) },
  { name: 'docker login command', make: command((s) => `docker login -u ci -p ${s} registry.acme.dev`) },
  { name: 'htpasswd command', make: command((s) => `ht${'passwd'} -b -c /etc/nginx/.htpasswd admin ${s}`) },
  { name: 'token option command', make: command((s) => `deploy-cli --tok${'en'} ${s} --env prod`, (r) => rc(r, 40)) },
  { name: 'linear api key', make: token((r) => `lin${'_api_'}${rc(r, 40)}`) },
  { name: 'notion token', make: token((r) => `nt${'n_'}${rc(r, 11, DIGITS)}${rc(r, 35)}`) },
  { name: 'grafana service account', make: token((r) => `gl${'sa_'}${rc(r, 32)}_${rc(r, 8, HEX)}`) },
  { name: 'databricks token', make: token((r) => `da${'pi'}${rc(r, 32, HEX)}`) },
  { name: 'groq key', make: token((r) => `gs${'k_'}${rc(r, 52)}`) },
  { name: 'tailscale key', make: token((r) => `tsk${'ey'}-auth-${rc(r, 12)}-${rc(r, 32)}`) },
  { name: 'figma token', make: token((r) => `fi${'gd_'}${rc(r, 40, B64URL)}`) },
  { name: 'vercel token', make: token((r) => `vc${'p_'}${rc(r, 40)}`) },
  { name: 'cloudflare token', make: token((r) => `cf${'ut_'}${rc(r, 40)}${rc(r, 8, HEX)}`) },
  { name: 'atlassian api token', make: token((r) => `ATA${'TT3'}${rc(r, 180, `${ALNUM}_=-`)}`) },
  { name: 'postman key', make: token((r) => `PM${'AK-'}${rc(r, 24, HEX)}-${rc(r, 34, HEX)}`) },
  { name: 'alibaba access key', make: token((r) => `LT${'AI'}${rc(r, 20)}`) },
  { name: 'supabase token', make: token((r) => `sb${'p_'}${rc(r, 40, HEX)}`) },
  { name: 'new relic key', make: token((r) => `NR${'AK-'}${rc(r, 27, UPPER + DIGITS)}`) },
  { name: 'brevo key', make: token((r) => `xkey${'sib-'}${rc(r, 64, HEX)}-${rc(r, 16)}`) },
];

function url(scheme: string, user: string, secret: string, rest: string): Made {
  return { snippet: `${scheme}://${user}:${secret}@${rest}`, secret };
}

/** A password after a credential phrase (the phrase given split, so this file holds none). */
function prose(phrase: string) {
  return (r: Random): Made => {
    const secret = password(r);
    return { snippet: `${phrase} ${secret}`, secret };
  };
}

function command(line: (secret: string) => string, make: (r: Random) => string = password) {
  return (r: Random): Made => {
    const secret = make(r);
    return { snippet: line(secret), secret };
  };
}

interface Wrapping {
  name: string;
  wrap: (made: Made, r: Random) => string;
  exotic?: boolean;
}

const multiline = (m: Made) => m.snippet.includes('\n');
const wrapAt = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, 'g'))?.join('\n') ?? text;
const percentAll = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
const hex = (text: string) => Buffer.from(text).toString('hex');
/** Three pieces of the snippet, cut inside the secret so that no piece holds all of it. */
function pieces(m: Made): string[] {
  const at = Math.max(0, m.snippet.indexOf(m.secret));
  const third = Math.max(1, Math.floor(m.secret.length / 3));
  const cuts = [at + third, at + 2 * third];
  return [m.snippet.slice(0, cuts[0]), m.snippet.slice(cuts[0], cuts[1]), m.snippet.slice(cuts[1])];
}
const jsString = (s: string) => JSON.stringify(s);

/** Look-alike letters of other scripts (Cyrillic, Greek, Armenian, Cherokee, small capitals, Lisu). */
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  a: 'аɑα', c: 'сᴄ', e: 'еҽ', i: 'іɩ', o: 'оοօ', p: 'рρ', s: 'ѕꜱ', x: 'хχ', y: 'уү', h: 'һհ', n: 'ոռ', u: 'սʋ',
  A: 'АΑᎪꓮ', B: 'ВΒᏴꓐ', C: 'СᏟꓚ', E: 'ЕΕᎬꓰ', H: 'НΗᎻꓧ', I: 'ІΙꓲ', K: 'КΚᏦꓗ', M: 'МΜᎷꓟ', O: 'ОΟՕꓳ', P: 'РΡᏢꓑ',
  S: 'ЅᏚꓢ', T: 'ТΤᎢꓔ', X: 'ХΧꓫ', Z: 'ΖᏃꓜ', W: 'ԜᏔꓪ', L: 'Ꮮꓡ', D: 'Ꭰꓓ', G: 'Ꮐꓖ', R: 'Ꭱꓣ', V: 'Ꮩꓦ',
};

function lookAlike(text: string, r: Random): string {
  return [...text].map((c) => {
    const options = LOOK_ALIKE[c];
    return options !== undefined && r() < 0.6 ? [...options][Math.floor(r() * [...options].length)] ?? c : c;
  }).join('');
}

const DECOY = (r: Random) => Array.from({ length: 24 }, () => b64(String.fromCharCode(...Array.from({ length: 45 }, () => Math.floor(r() * 256))))).join('\n');

const WRAPPINGS: Wrapping[] = [
  { name: 'plain', wrap: (m) => m.snippet },
  { name: 'english prose', wrap: (m) => `Note for the on-call team: we use ${m.snippet} for the nightly export until it is rotated next week.` },
  { name: 'french prose', wrap: (m) => `Pour info, l'export de nuit utilise ${m.snippet} jusqu'à la rotation de la semaine prochaine.` },
  { name: 'chinese prose', wrap: (m) => `备注：夜间导出使用 ${m.snippet} ，下周轮换。` },
  { name: 'env line', wrap: (m) => `# deploy settings\nexport SERVICE_CREDENTIAL=${multiline(m) ? `"${m.snippet}"` : `'${m.snippet}'`}\nexport REGION=eu-west-1` },
  { name: 'json', wrap: (m) => JSON.stringify({ service: 'export', credential: m.snippet, retries: 3 }, null, 2) },
  {
    name: 'yaml',
    wrap: (m) => `service:\n  name: export\n  credential: ${multiline(m) ? `|\n    ${m.snippet.split('\n').join('\n    ')}` : `"${m.snippet}"`}\n  retries: 3`,
  },
  { name: 'npmrc', wrap: (m) => (multiline(m) ? `# key\n${m.snippet}` : `registry=https://registry.npmjs.org/\n//npm.acme.dev/:_auth${'Token'}=${m.secret}\nalways-auth=true`) },
  { name: 'docker auths', wrap: (m) => JSON.stringify({ auths: { 'registry.acme.dev': { auth: b64(`ci:${m.secret}`) } } }) },
  { name: 'command line', wrap: (m) => (multiline(m) ? `cat > /tmp/cred <<'EOF'\n${m.snippet}\nEOF\nchmod 600 /tmp/cred` : `RUN_ID=42 deploy-cli --env prod --credential '${m.snippet}' --verbose`) },
  { name: 'http header', wrap: (m) => (multiline(m) ? `POST /v1/keys HTTP/1.1\nHost: api.acme.dev\n\n${m.snippet}` : `GET /v1/me HTTP/1.1\nHost: api.acme.dev\nAuthori${'zation'}: Bearer ${m.secret}\nAccept: */*`) },
  { name: 'url-encoded', wrap: (m) => `callback: https://app.acme.dev/cb?state=${percentAll(m.snippet)}&next=%2Fhome` },
  { name: 'form-encoded', wrap: (m) => `payload=${encodeURIComponent(m.snippet).replace(/%20/g, '+')}&submit=Save` },
  { name: 'hex', wrap: (m) => `blob (hex): ${hex(m.snippet)}` },
  { name: 'base64 width 16', wrap: (m) => `cfg:\n${wrapAt(b64(m.snippet), 16)}` },
  { name: 'base64 width 32', wrap: (m) => `cfg:\n${wrapAt(b64(m.snippet), 32)}` },
  { name: 'base64 width 60', wrap: (m) => `cfg:\n${wrapAt(b64(m.snippet), 60)}` },
  { name: 'base64 width 76', wrap: (m) => `Encoded config blob:\n${wrapAt(b64(m.snippet), 76)}` },
  { name: 'after decoy base64', wrap: (m, r) => `attachments:\n${DECOY(r)}\nconfig: ${b64(m.snippet)}` },
  { name: 'base64 of url-encoded', wrap: (m) => `state=${b64(percentAll(m.snippet))}` },
  { name: 'url-encoded base64', wrap: (m) => `https://app.acme.dev/cb?data=${encodeURIComponent(b64(m.snippet))}` },
  { name: 'hex of base64', wrap: (m) => `dump: ${hex(b64(m.snippet))}` },
  { name: 'js concatenation', wrap: (m) => `const cred = ${pieces(m).map(jsString).join(' + ')};` },
  { name: 'python concatenation', wrap: (m) => `CRED = (\n    ${pieces(m).map(jsString).join('\n    ')}\n)` },
  { name: 'shell concatenation', wrap: (m) => `CRED=${pieces(m).map((p, i) => (i % 2 === 0 ? `'${p.replace(/'/g, '')}'` : jsString(p))).join('')}` },
  { name: 'quoted lines', wrap: (m) => `> From the runbook:\n> ${pieces(m).join('\n> ')}` },
  { name: 'continued lines', wrap: (m) => `CRED=${pieces(m).map(jsString).join(' \\\n  ')}` },
  { name: 'look-alike letters', wrap: (m, r) => lookAlike(m.snippet, r) },
  { name: 'zero-width inserted', wrap: (m, r) => [...m.snippet].map((c) => (r() < 0.3 ? `${c}\u200B` : c)).join('') },
  { name: 'fullwidth', wrap: (m) => [...m.snippet].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('') },
  { name: 'reversed', wrap: (m) => [...m.snippet].reverse().join(''), exotic: true },
];

/** Every format in every wrapping: the secret corpus (seeded, the same on every run). */
export function secretCases(seed = 14): AdversarialCase[] {
  const r = seeded(seed);
  const cases: AdversarialCase[] = [];
  for (const format of FORMATS) {
    for (const wrapping of WRAPPINGS) {
      const made = format.make(r);
      cases.push({
        kind: 'secret',
        class: format.name,
        wrapping: wrapping.name,
        text: wrapping.wrap(made, r),
        secret: made.secret,
        ...(wrapping.exotic ? { exotic: true } : {}),
      });
    }
  }
  return cases;
}

/** The names of the formats and wrappings (for the report). */
export const SECRET_FORMATS = FORMATS.map((f) => f.name);
export const SECRET_WRAPPINGS = WRAPPINGS.map((w) => w.name);
