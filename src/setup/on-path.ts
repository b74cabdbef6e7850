/** Whether a command is on the executable search path. */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * True when `name` is an executable file in one of the PATH's directories.
 *
 * @example
 * onPath('engram', '/usr/local/bin:/usr/bin'); // true when /usr/local/bin/engram exists
 */
export function onPath(name: string, searchPath: string, platform: NodeJS.Platform = process.platform): boolean {
  const names = platform === 'win32' ? [`${name}.cmd`, `${name}.exe`] : [name];
  return searchPath.split(delimiter).some((dir) => dir !== '' && names.some((n) => existsSync(join(dir, n))));
}
