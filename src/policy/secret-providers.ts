/**
 * The provider token formats of the secret rules, with their prefixes, lengths and alphabets as
 * the providers and the gitleaks rule set document them, and private keys in every block style.
 * `secrets.ts` adds the generic detectors and turns both tables into the policy's rules.
 *
 * Descriptions name what a rule catches without quoting a triggering value, so that this file
 * passes the policy itself.
 */
import type { RuleDefinition } from './lazy-rule.js';
import { isDocumentationJwt, mixed, notExample } from './secret-values.js';

/** A secret rule before `secrets.ts` gives it its group, action and kind. */
export type SecretRuleSpec = Omit<RuleDefinition, 'group' | 'action' | 'kind'>;

/** Provider token formats and private-key blocks, matched first. */
export const PROVIDER_RULES: SecretRuleSpec[] = [
  {
    id: 'secret.aws-access-key',
    needs: () => /A(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|IPA|NPA|NVA|PKA)/,
    description: 'AWS access key id (AKIA/ASIA… followed by 16 characters)',
    patterns: () => [/\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Z0-9])/g],
    accept: notExample,
  },
  {
    id: 'secret.aws-secret-key',
    needs: () => /aws_?secret/i,
    description: 'AWS secret access key assigned to an aws_secret… name',
    patterns: () => [/\baws_?(?:secret_?(?:access_?)?key|secret)\b["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi],
    accept: notExample,
  },
  {
    id: 'secret.github-token',
    needs: () => /gh[pousr]_|github_pat_/,
    description: 'GitHub personal, OAuth, app or refresh token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    patterns: () => [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, /\bgithub_pat_[A-Za-z0-9_]{50,}\b/g],
  },
  {
    id: 'secret.gitlab-token',
    needs: () => /\bgl[a-z]{1,5}-/,
    description: 'GitLab personal, deploy, pipeline or runner token (glpat-, gldt-, glptt-, glrt-)',
    patterns: () => [/\bgl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_-]{20,}/g],
  },
  {
    id: 'secret.openai-key',
    needs: () => /sk-/,
    description: 'OpenAI API key (sk-, sk-proj-, sk-svcacct-)',
    patterns: () => [/\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g],
    accept: mixed,
  },
  {
    id: 'secret.anthropic-key',
    needs: () => /sk-ant-/,
    description: 'Anthropic API or admin key (sk-ant-…)',
    patterns: () => [/\bsk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{32,}/g],
  },
  {
    id: 'secret.slack-token',
    needs: () => /xox|xapp-|hooks\.slack/,
    description: 'Slack bot, user, app, config or refresh token (xox…, xapp-) and incoming-webhook or workflow URL',
    patterns: () => [
      /\bxox[abposre]-(?:\d+-)*[A-Za-z0-9]{10,}(?:-[A-Za-z0-9]+)*/g,
      /\bxoxe\.xox[bp]-\d-[A-Za-z0-9]{40,}/g,
      /\bxapp-\d-[A-Z0-9]{8,14}-\d{8,16}-[a-f0-9]{40,64}\b/g,
      /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Z0-9]+\/[A-Z0-9]+\/[A-Za-z0-9/]{16,}/g,
    ],
  },
  {
    id: 'secret.stripe-key',
    needs: () => /_live_|whsec_/,
    description: 'Stripe live secret or restricted key and webhook secret (test-mode keys are accepted)',
    patterns: () => [/\b(?:sk|rk)_live_[A-Za-z0-9]{16,}\b/g, /\bwhsec_[A-Za-z0-9]{32,}\b/g],
  },
  {
    id: 'secret.google-key',
    needs: () => /AIza|GOCSPX-/,
    description: 'Google API key (AIza…) and OAuth client secret (GOCSPX-)',
    patterns: () => [/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g],
  },
  {
    id: 'secret.chat-platform',
    needs: () => /\.[A-Za-z0-9_-]{6}\.|discord|:AA|webhook/i,
    description: 'Chat-platform bot tokens and webhooks: Discord bot token and webhook, Telegram bot token, Microsoft Teams and Office 365 incoming webhooks',
    patterns: () => [
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
    needs: () => /npm_|pypi-|rubygems_|oy2|cio|dckr_|AKCp|CLOJARS_/,
    description: 'Package-registry tokens: npm, PyPI, RubyGems, NuGet, crates.io, Docker Hub, JFrog, Clojars',
    patterns: () => [
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
    // `/hv[sbr]\.|\bs\.|dp\.|ops_|A3-|\bst\./`, read from the dot back (three times as fast).
    needs: () => /\.(?<=hv[sbr]\.|\bs\.|dp\.|\bst\.)|ops_|A3-/,
    description: 'Secret-manager tokens: HashiCorp Vault (hvs., hvb., hvr., legacy s.), Doppler (dp.st., dp.pt.…), 1Password service account and secret key, Infisical service token',
    patterns: () => [
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
    needs: () => /SK|AC|auth|twilio/i,
    description: 'Twilio API key (SK…), and an account SID (AC…) with its 32-hex auth token',
    patterns: () => [
      /\bSK[0-9a-f]{32}\b/g,
      /\bAC[0-9a-f]{32}\b[^\n]{0,120}?(?<![\w])[0-9a-f]{32}\b/g,
      /\b(?:auth[_ -]?token|authtoken|twilio[_ -]?(?:auth|token|secret))\b\W{0,6}[0-9a-f]{32}\b/gi,
    ],
    accept: (m) => !/^AC/.test(m[0]) || /auth|token|secret|:[0-9a-f]{32}$|\bpass/i.test(m[0].slice(34)),
  },
  {
    id: 'secret.azure',
    needs: () => /AccountKey=|SharedAccessKey=|sig=|Q~/i,
    description: 'Azure storage account and shared access keys, SAS signatures (sig=), Azure AD client secrets',
    patterns: () => [
      /\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{42,86}={0,2}/g,
      /[?&;]sig=[A-Za-z0-9%+/]{30,}(?:%3D|=){0,2}/gi,
      /(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])/g,
    ],
    accept: notExample,
  },
  {
    id: 'secret.provider-token',
    needs: () => /hf_|SG\.|shp|do[por]_v1_|key-|-us\d|ATATT3|PMAK-|HRKU-|LTAI|sntry|sbp_|pscale_|pul-|atlasv1|NRAK-|xkeysib-|sq0|sk\.eyJ/,
    description:
      'Other provider tokens: Hugging Face, SendGrid, Shopify, DigitalOcean, Mailgun, Mailchimp, Atlassian, Postman, Heroku, Alibaba, Sentry, Supabase, PlanetScale, Pulumi, Terraform Cloud, New Relic, Brevo, Square, Mapbox',
    patterns: () => [
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
    needs: () => /BEGIN|PuTTY|AGE-SECRET|Key\s*=/,
    description: 'Private key block in any style: PEM (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), SSH2, PuTTY key file, age secret key, WireGuard private key',
    patterns: () => [
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
    needs: () => /kty/,
    patterns: () => [/\{[^{}]{0,4000}?\\?"kty\\?"[^{}]{0,4000}\}/g],
    accept: (m) => /\\?"(?:d|p|q|dp|dq|qi|k)\\?"\s*:\s*\\?"[A-Za-z0-9_-]{16,}/.test(m[0]),
  },
  {
    id: 'secret.jwt',
    needs: () => /eyJ/,
    description: 'JSON Web Token (three base64url segments, header and payload starting eyJ)',
    patterns: () => [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g],
    accept: (m) => !isDocumentationJwt(m[0]),
  },
];
