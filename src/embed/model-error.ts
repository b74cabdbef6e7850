/** The one error a local model directory gives when a file is missing, damaged or unsupported. */
import { EngramError } from '../errors.js';

/** The neutral fix for any unusable model file (core errors name no CLI flag). */
export const MODEL_FILE_HINT
  = 'Download the model directory again (config.json, model.safetensors, tokenizer.json), or choose another Model2Vec model.';

/**
 * A PARAM_ERROR naming the file and what is wrong with it: the configured model cannot be used
 * until the user fixes the directory, so retrying would not help.
 *
 * @example
 * throw modelFileError('/models/potion/model.safetensors', 'the file is missing');
 */
export function modelFileError(path: string, problem: string, cause?: unknown): EngramError {
  return new EngramError('PARAM_ERROR', `Unusable model file ${path}: ${problem}`, {
    hint: MODEL_FILE_HINT,
    details: { path },
    cause,
  });
}
