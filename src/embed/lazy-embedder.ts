/**
 * An embedder opened on first use: a run that writes nothing, or a command that embeds nothing,
 * never loads a Model2Vec model nor builds an HTTP client, and a malformed spelling fails only
 * the first embedding (as EMBEDDER_UNAVAILABLE inside a write, which then leaves items pending).
 * Until it is opened, `dimensions` is undefined and `id` is the spelling's: final for the HTTP
 * kinds (`ollama:MODEL`), provisional for `model2vec:PATH` or a spelling that does not parse.
 */
import { type Embedder, spelledId } from './embedder.js';
import { openEmbedder, type OpenEmbedderOptions } from './open-embedder.js';

/**
 * The embedder `spec` names, opened when `embed` is first called.
 *
 * @example
 * const embedder = lazyEmbedder('ollama:nomic-embed-text');
 * embedder.id; // 'ollama:nomic-embed-text' (nothing contacted yet)
 */
export function lazyEmbedder(spec: string, options: OpenEmbedderOptions = {}): Embedder {
  let opening: Promise<Embedder> | undefined;
  let opened: Embedder | undefined;
  const spelled = spelledId(spec);
  const guess = spelled ?? spec.replace(/@.*$/, '');
  return {
    get id() {
      return opened?.id ?? guess;
    },
    get provisional() {
      return opened === undefined && spelled === undefined;
    },
    get dimensions() {
      return opened?.dimensions;
    },
    async embed(texts, embedOptions) {
      opening ??= openEmbedder(spec, options).then((embedder) => (opened = embedder));
      opening.catch(() => {
        opening = undefined;
      });
      return (await opening).embed(texts, embedOptions);
    },
  };
}
