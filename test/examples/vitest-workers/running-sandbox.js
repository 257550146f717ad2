// The global setup for a sandbox that outlives the run (the test reads its journals afterwards).
import { defineSandboxSetup } from 'petstore-sandbox/vitest/global-setup';

export default defineSandboxSetup({ url: process.env.SANDBOX_URL, adminToken: process.env.SANDBOX_ADMIN_TOKEN });
