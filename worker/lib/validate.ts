import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { badRequest } from './errors';

/** zValidator whose failures become 400 { error } naming the first bad field ("page: …"). */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const field = issue?.path.length ? issue.path.join('.') : target;
      throw badRequest(field, issue?.message ?? 'invalid');
    }
  });
}
