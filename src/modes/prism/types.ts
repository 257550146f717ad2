import type * as PrismHttp from '@stoplight/prism-http';

/** An operation as Prism reads it from the spec: what the runner hands on, and the reply and error mappings read. */
export type HttpOperation = Awaited<ReturnType<typeof PrismHttp.getHttpOperationsFromSpec>>[number];
