/**
 * The package version, kept equal to package.json by a test; read without touching the disk.
 *
 * @example
 * console.log(`engram ${VERSION}`);
 */
export const VERSION = '0.1.0';
