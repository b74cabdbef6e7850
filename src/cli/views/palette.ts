/** The colours of text output: picocolors on a terminal that wants colour, plain text otherwise. */

/** Paints one piece of text. */
export type Paint = (text: string) => string;

/** The few styles text views use. */
export interface Palette {
  id: Paint;
  dim: Paint;
  bold: Paint;
  red: Paint;
  yellow: Paint;
}

const PLAIN: Palette = { id: String, dim: String, bold: String, red: String, yellow: String };

/**
 * The palette of a run; picocolors is loaded only when colour is on, and told so (its own test
 * reads the process's streams and environment, which in `engram daemon` are not the run's).
 */
export async function palette(color: boolean): Promise<Palette> {
  if (!color) return PLAIN;
  const { default: picocolors } = await import('picocolors');
  const pc = picocolors.createColors(true);
  return { id: pc.cyan, dim: pc.dim, bold: pc.bold, red: pc.red, yellow: pc.yellow };
}
