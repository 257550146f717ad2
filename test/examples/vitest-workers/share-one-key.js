// Breaks the isolation on purpose: every worker claims pool 1, so every worker gets the same key.
// The worker's real number is kept in FIXTURE_WORKER for the pets' names.
process.env.FIXTURE_WORKER ??= process.env.VITEST_POOL_ID;
process.env.VITEST_POOL_ID = '1';
