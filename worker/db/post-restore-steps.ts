// The steps `npm run restore` runs once the restored database is migrated (worker/db/restore.ts). Features
// do not import this file's owner: the composition root registers their steps here (such as re-applying the
// account erasures recorded after the backup was taken), in the order they must run.
import type { PostRestoreStep } from './restore';

const steps: { name: string; run: PostRestoreStep }[] = [];

export function registerPostRestoreStep(name: string, run: PostRestoreStep): void {
  if (steps.some((step) => step.name === name)) throw new Error(`Bước sau khôi phục "${name}" đã được đăng ký`);
  steps.push({ name, run });
}

export function postRestoreSteps(): readonly { name: string; run: PostRestoreStep }[] {
  return [...steps];
}
