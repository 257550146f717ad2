import { defineConfig } from 'vite';
import { sandboxPlugin } from './sandbox-plugin.js';

export default defineConfig({
  plugins: [sandboxPlugin({ seed: 7, count: 5 })],
  server: { host: '127.0.0.1' },
});
