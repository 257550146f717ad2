import { startPostgres } from '../support/postgres.js';
const pg = await startPostgres();
const db = await pg.createDatabase('probe');
console.log(pg.url(db));
process.on('SIGTERM', async () => {
  await pg.stop();
  process.exit(0);
});
setInterval(() => {}, 100000);
