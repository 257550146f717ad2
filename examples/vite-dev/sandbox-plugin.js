/**
 * A Vite plugin that mounts the Pet Store sandbox's middleware in the dev
 * server under `/api`: the page calls `/api/v1/pets` on its own origin, and
 * every other request (the page, its scripts) goes on to Vite.
 */
import { petstoreSandbox } from 'petstore-sandbox/middleware';

/** @param {import('petstore-sandbox/middleware').CreateSandboxOptions} [options] the sandbox's options (seed, count, apiKeys...) */
export function sandboxPlugin(options = {}) {
  return {
    name: 'petstore-sandbox',
    apply: 'serve',
    configureServer(server) {
      const sandbox = petstoreSandbox(options);
      server.middlewares.use('/api', sandbox);
      // Vite has no close hook of its own for a middleware: the sandbox closes with the dev server's socket.
      server.httpServer?.once('close', () => void sandbox.close());
    },
  };
}
