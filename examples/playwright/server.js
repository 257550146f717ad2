// A tiny static server for the page in public/, on 127.0.0.1 and a free port; it prints its URL for Playwright's webServer.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const ROOT = join(import.meta.dirname, 'public');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://localhost').pathname;
  const file = path === '/' ? 'index.html' : path.slice(1);
  if (!/^[\w-]+\.(html|js)$/.test(file)) return res.writeHead(404).end();
  try {
    const body = await readFile(join(ROOT, file));
    res.writeHead(200, { 'content-type': TYPES[extname(file)] }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`example page at http://127.0.0.1:${server.address().port}`));
