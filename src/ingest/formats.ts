/**
 * File formats by extension: which extractor family reads a file, and which files are skipped
 * as binary without being opened. An unknown extension is read as text unless its bytes are binary.
 */
import { basename, extname } from 'node:path';
import { decodeTextBytes } from '../util/text-bytes.js';

/** Files (and standard input) larger than this are not ingested: extraction holds one file in memory at a time. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

export type Family = 'text' | 'code' | 'markup' | 'office' | 'opendocument' | 'pdf';

const TEXT = 'md markdown mdx txt text rst adoc asciidoc org tex csv tsv json jsonl ndjson yaml yml toml ini cfg conf properties env log diff patch srt vtt bib';
const CODE
  = 'py pyi js mjs cjs ts mts cts tsx jsx java go rs c h cpp cc cxx hpp hh cs rb php swift kt kts scala sh bash zsh fish ps1 psm1 bat cmd sql css scss sass less vue svelte lua pl pm r m mm dart ex exs erl hrl hs ml mli clj cljs edn groovy gradle proto graphql gql tf tfvars hcl nix zig jl f90 vb fs fsx elm purs re res sol v vhd asm s cmake mk';
const MARKUP = 'html htm xhtml xml xsd xsl xslt svg rss atom plist';
const OFFICE = 'docx pptx xlsx';
const OPENDOCUMENT = 'odt odp ods';
const BINARY
  = 'png jpg jpeg gif webp ico bmp tif tiff psd heic avif zip gz tgz bz2 xz zst 7z rar tar jar war ear class exe dll so dylib o a lib bin dat db sqlite sqlite3 wasm mp3 mp4 m4a mov avi mkv webm wav flac ogg opus woff woff2 ttf otf eot pyc pyo whl deb rpm dmg iso img pdb npy npz pkl parquet arrow onnx safetensors pt ckpt';
const LEGACY_OFFICE = 'doc xls ppt';

const FAMILY = new Map<string, Family>();
for (const [family, list] of [
  ['text', TEXT],
  ['code', CODE],
  ['markup', MARKUP],
  ['office', OFFICE],
  ['opendocument', OPENDOCUMENT],
  ['pdf', 'pdf'],
] as const) {
  for (const ext of list.split(' ')) FAMILY.set(ext, family);
}
const BINARY_EXTENSIONS = new Set(BINARY.split(' '));
const LEGACY = new Set(LEGACY_OFFICE.split(' '));
const CODE_NAMES = new Set(['Makefile', 'Dockerfile', 'Containerfile', 'Rakefile', 'Gemfile', 'Jenkinsfile', 'Vagrantfile']);

export type Detected = { family: Family; ext: string } | { skip: string };

/** The family of `path` by its name, or why it is skipped; undefined when the content must decide. */
export function detectByName(path: string): Detected | undefined {
  const name = basename(path);
  const ext = extname(name).slice(1).toLowerCase();
  if (CODE_NAMES.has(name)) return { family: 'code', ext: name.toLowerCase() };
  if (LEGACY.has(ext)) return { skip: `legacy binary Office format (.${ext}); save it as .${ext}x to ingest it` };
  if (BINARY_EXTENSIONS.has(ext)) return { skip: `binary file (.${ext})` };
  const family = FAMILY.get(ext);
  return family === undefined ? undefined : { family, ext };
}

/**
 * Why bytes that should be text are binary (NUL bytes that are not UTF-16, mostly invalid UTF-8 or
 * control characters; see util/text-bytes.ts), or undefined for text.
 */
export function binaryReason(bytes: Uint8Array): string | undefined {
  const decoded = decodeTextBytes(bytes);
  return 'binary' in decoded ? decoded.binary : undefined;
}

/** The language or format name recorded as provenance `source_kind` and used as a tag. */
export function kindName(family: Family, ext: string): string {
  const names: Record<string, string> = {
    md: 'markdown', markdown: 'markdown', mdx: 'markdown', py: 'python', js: 'javascript', mjs: 'javascript',
    cjs: 'javascript', jsx: 'javascript', ts: 'typescript', tsx: 'typescript', mts: 'typescript', rs: 'rust',
    rb: 'ruby', kt: 'kotlin', cs: 'csharp', cpp: 'cpp', cc: 'cpp', hpp: 'cpp', sh: 'shell', bash: 'shell',
    zsh: 'shell', yml: 'yaml', htm: 'html', txt: 'text', go: 'go', java: 'java', c: 'c', h: 'c',
  };
  return names[ext] ?? (ext === '' ? family : ext);
}
