/** Store-wide settings kept with the data, e.g. when auto-consolidation last ran. */
export interface MetaRepository {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}
