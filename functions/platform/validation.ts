// Parsing with zod, and the one way a validation problem is described: edge and core use the same.
import type * as z from 'zod/mini';
import { InvalidRequestError } from './errors';

/** Validation messages name the field: "return_url: must be an https URL". */
export function describeZodError(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Parses or throws InvalidRequestError naming `what` and the fields at fault. */
export function parseWith<T extends z.ZodMiniType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidRequestError(`Invalid ${what}: ${describeZodError(result.error)}`);
  return result.data;
}

/** A problem found by a use case rather than a schema, described as a schema's would be. */
export function invalidField(what: string, field: string, problem: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid ${what}: ${field}: ${problem}`);
}
