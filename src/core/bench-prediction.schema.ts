/**
 * An agent's prediction for one instance, in SWE-bench's shape. Either `model_patches` (one diff
 * per repository, keyed `owner/name`) or `model_patch`: one diff over the joint workspace whose
 * paths start with each repository's folder name (`a/api/src/x.ts`), split per repository.
 * Neither (or `null`) is SWE-bench's "patch is None": an empty-patch instance.
 */
import { z } from 'zod';
import { instanceIdSchema } from './bench-instance.schema.ts';

/** The model name that stands for the instances' own gold patches. */
export const GOLD_MODEL = 'gold';

/** Model names become folder names and file-name parts; SWE-bench uses paths like `org/model`. */
export const modelNameSchema = z.string().min(1, 'expected the model name or path');

export const benchPredictionSchema = z
  .object({
    instance_id: instanceIdSchema,
    model_name_or_path: modelNameSchema,
    model_patch: z.string().nullable().optional(),
    model_patches: z.record(z.string(), z.string().nullable()).optional(),
  })
  // Harness outputs carry more (`full_output`, costs…); they are kept, not rejected.
  .loose()
  .superRefine((p, ctx) => {
    if (typeof p.model_patch === 'string' && p.model_patches) {
      ctx.addIssue({
        code: 'custom',
        path: ['model_patches'],
        message: 'give either "model_patch" (one joint diff) or "model_patches" (per repository), not both',
      });
    }
  });

export type BenchPrediction = z.infer<typeof benchPredictionSchema>;
export type BenchPredictionInput = z.input<typeof benchPredictionSchema>;

/**
 * Folder-safe form of a model name (`org/model` → `org__model`, as SWE-bench does): always one
 * path segment that stays inside the run folder. A name that would be `.`, `..`, empty or hidden
 * (`.x`) gets a leading `_`, and a long one is cut and told apart by a hash of the whole name.
 * Two models whose folders coincide are refused before a run (see `modelFolderClash`).
 */
export function modelFolder(model: string): string {
  let folder = model.replace(/[/\\]/g, '__').replace(/[^A-Za-z0-9_.+@-]/g, '_');
  if (folder === '' || folder.startsWith('.')) folder = `_${folder}`;
  if (folder.length > MAX_SEGMENT) folder = `${folder.slice(0, MAX_SEGMENT - 9)}-${fnv1a(model)}`;
  return folder;
}

/** Room for `.<run-id>.json` after the folder name within a 255-byte file name. */
const MAX_SEGMENT = 160;

/** A short, stable hash (FNV-1a, 32 bits, hex): core does no I/O, so no node:crypto here. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** Two different model names that would share one folder (and so one another's results), if any. */
export function modelFolderClash(models: readonly string[]): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const m of new Set(models)) {
    const other = seen.get(modelFolder(m));
    if (other !== undefined) return [other, m];
    seen.set(modelFolder(m), m);
  }
  return undefined;
}
