/** The ingest record: which files were ingested, with which hash, into which chunk items. */

/** An ingested file: its hash and the items holding its chunks, in order. */
export interface CorpusFile {
  corpus_id: string;
  path: string;
  sha256: string;
  size_bytes: number;
  ingested_at: string;
  item_ids: string[];
  /** The directory walked when the file was found in one (absolute), else null. */
  root: string | null;
  /** The scope of its chunks. */
  scope: string | null;
  /** Chunks the policy refused (stored nowhere); more than 0 makes the file `partial`. */
  refused: number;
}

export interface CorpusRepository {
  /** The ingest record of a file, by corpus and path. */
  get(corpusId: string, path: string): Promise<CorpusFile | undefined>;
  /**
   * Records a file as ingested with its chunk items, replacing any earlier record of it; a null
   * `root` keeps the root of an earlier record (a file named directly is still under its directory).
   */
  put(file: CorpusFile): Promise<void>;
  /** The files recorded as found by walking `root` in this corpus, with chunks in `scope`. */
  listUnder(corpusId: string, root: string, scope: string): Promise<CorpusFile[]>;
  /** Sets where a recorded file was found and its chunks' scope (records older than schema v9). */
  setRoot(corpusId: string, path: string, root: string, scope: string): Promise<void>;
  /** Forgets a file's ingest record (its chunk items stay); resolves true when there was one. */
  remove(corpusId: string, path: string): Promise<boolean>;
  /** True when a file other than (corpusId, path) lists this item among its chunks. */
  isChunkShared(itemId: string, corpusId: string, path: string): Promise<boolean>;
}
