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

/** Folder-safe form of a model name (`org/model` → `org__model`), as SWE-bench does. */
export function modelFolder(model: string): string {
  return model.replace(/[/\\]/g, '__').replace(/[^A-Za-z0-9_.+@-]/g, '_');
}
