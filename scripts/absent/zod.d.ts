// zod, which playwright-core's types import for a feature this package does not use, and which is not installed:
// without a module to resolve to, dts-bundle-generator stops on the import (tsc itself only ignores it, as the import asks).
export type ZodTypeAny = unknown;
export declare const z: unknown;
