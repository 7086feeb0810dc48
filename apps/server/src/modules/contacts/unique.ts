import type { ErrorCode } from '@balcao/contracts';
import { AppError } from '../../http/errors.js';

/**
 * Runs a write whose uniqueness was checked first for a clear code; a concurrent writer
 * that wins the race trips `constraint` instead, which answers the same 409 `code`.
 */
export async function conflictAs<T>(constraint: string, code: ErrorCode, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    for (let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
      if (e.code === '23505' && e.constraint === constraint) throw new AppError(code, 409);
    }
    throw err;
  }
}
