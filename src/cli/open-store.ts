/**
 * How a CLI run opens its store: found by the settings' discovery, with one connection per store
 * per run, a missing store created only by a command that writes, and a store this run created
 * removed again when the command stored nothing in it.
 */
import { existsSync } from 'node:fs';
import type { ProjectConfig } from '../config/project-config.js';
import type { Settings } from '../config/settings.js';
import type { Embedder } from '../embed/embedder.js';
import type { Engram } from '../engram.js';
import type { OpenOptions } from './context.js';
import { AUTO_CONSOLIDATE_DEFAULTS } from '../context.js';
import { deferredEngram } from './deferred-engram.js';
import { missingStoreError } from './missing-store.js';
import { claimNewStore, dropIfEmpty, type NewStore } from './new-store.js';
import type { Output } from './output.js';

/** A store this run created, and the connection it opened on it (none if the open failed). */
interface Created {
  store: NewStore;
  engram: Engram | undefined;
}

export interface StoreOpener {
  /** Opens the store the settings locate; see {@link OpenOptions}. */
  open(settings: Settings, options?: OpenOptions): Promise<Engram>;
  /**
   * Once the command is done, whether it succeeded or not: a store it created that holds nothing
   * is removed (a failed command leaves everything as it was), and one that stays is announced.
   * Commands that create a store return plain data, so closing it before rendering is safe.
   */
  settle(): Promise<void>;
  /** Closes every connection still open. */
  close(): void;
}

/**
 * The configured embedder, opened on its first use (the embedder modules are loaded only when one
 * is configured); undefined without one.
 */
async function openEmbedderSetting(settings: Settings, config: ProjectConfig): Promise<Embedder | undefined> {
  const setting = settings.embedder(config);
  if (setting === undefined) return undefined;
  const { lazyEmbedder } = await import('../embed/lazy-embedder.js');
  const { spec, apiKey } = setting;
  return lazyEmbedder(spec, { apiKey });
}

/** The store opener of one CLI run, announcing on `output`. */
export function createStoreOpener(output: Output): StoreOpener {
  const opened: Engram[] = [];
  /** Stores this run created (claimed with O_EXCL), with the connection it opened on each. */
  const created: Created[] = [];

  async function open(settings: Settings, options: OpenOptions = {}): Promise<Engram> {
    const { write = false, defer = false, preview = false, auto = true, ftsTokenizer, secrecy } = options;
    const { checkPages } = options;
    const location = settings.store();
    let { path } = location;
    if (!location.exists && !write && !defer) {
      if (!preview) throw missingStoreError(location);
      output.info(`no store at ${path} yet: the dry run compares with an empty one (the real run creates it)`);
      path = ':memory:';
    }
    // One connection per store per run: `push --source` ingests, then recalls, on the same one.
    const reused = opened.find((e) => e.path === path && path !== ':memory:');
    if (reused !== undefined) return reused;
    const [{ openEngram }, config] = await Promise.all([import('../engram.js'), settings.storeConfig(path)]);
    const autoConsolidate = auto ? await settings.autoConsolidate(AUTO_CONSOLIDATE_DEFAULTS, config) : undefined;
    const engramSettings = {
      session: settings.session,
      fullText: settings.fullText,
      secrecy: settings.secrecy(secrecy),
      tokenizer: settings.tokenizer(config),
      autoConsolidate,
      checkPages,
      embedder: await openEmbedderSetting(settings, config),
    };
    /**
     * Opens the store, creating it (and the user store's .engram/) when it is missing. A
     * store `serve` creates is announced at once; one a command creates is announced, or
     * removed if it holds nothing, when the command ends (`settle`).
     */
    const openStore = async (announce: boolean) => {
      const missing = path !== ':memory:' && !existsSync(path);
      // Only a store created now takes a tokenizer: an existing one keeps the one recorded in it.
      const tokenizer = missing ? settings.newStoreFtsTokenizer(ftsTokenizer, config) : undefined;
      const claimed = missing ? claimNewStore(path, location.source === 'user') : undefined;
      const entry: Created | undefined = claimed && { store: claimed, engram: undefined };
      // Tracked before the open, so that a store whose creation fails half-way is removed too.
      if (entry !== undefined && !announce) created.push(entry);
      const engram = await openEngram({ path, ...engramSettings, ftsTokenizer: tokenizer });
      if (entry === undefined) return engram;
      if (announce) output.info(`created store ${path}`);
      else entry.engram = engram;
      return engram;
    };
    const engram = location.exists || !defer || path === ':memory:'
      ? await openStore(false)
      : deferredEngram({
          path,
          empty: await openEngram({ path: ':memory:', ...engramSettings, autoConsolidate: undefined }),
          exists: () => existsSync(path),
          open: () => openStore(true),
        });
    opened.push(engram);
    return engram;
  }

  return {
    open,
    async settle() {
      for (const { store, engram } of created.splice(0)) {
        if (engram !== undefined) {
          engram.close();
          const at = opened.indexOf(engram);
          if (at >= 0) opened.splice(at, 1);
        }
        if (!(await dropIfEmpty(store))) output.info(`created store ${store.path}`);
      }
    },
    close() {
      for (const engram of opened) engram.close();
    },
  };
}
