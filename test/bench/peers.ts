/**
 * The peers: json-server, Mockoon CLI and WireMock, each a real server in
 * its own process on 127.0.0.1 and a free port, serving the Pet Store's
 * three operations from its own files (peer-files.ts). Each runs with its
 * documented defaults apart from the port, the address and WireMock's
 * banner; its stdout (json-server's and Mockoon's request log) goes to a
 * file, as the sandbox's does. WireMock runs as `java -jar` on the jar of
 * its npm package, so the process measured is the JVM itself.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { jsonServerFiles, mockoonEnvironment, wireMockFiles } from './peer-files.js';
import { freePort, logFile, start, type ServerProcess, type SpawnSpec } from './processes.js';
import { versionOf } from './report.js';

const MODULES = join(PACKAGE_ROOT, 'node_modules');
/** Debian's Java 17 (openjdk-17-jre-headless). */
export const JAVA = '/usr/bin/java';

/** The rows' names of the peers, with the version installed. */
export const PEER_LABELS = {
  jsonServer: `json-server ${versionOf('json-server')}`,
  mockoon: `Mockoon CLI ${versionOf('@mockoon/cli')}`,
  wireMock: `WireMock ${versionOf('wiremock')}`,
} as const;

/** Starts `spec` with its stdout in a file of its own, removed when it stops. */
async function startLogged(spec: Omit<SpawnSpec, 'stdout' | 'prefix' | 'timeoutMs'>): Promise<ServerProcess> {
  const log = logFile(spec.name);
  try {
    const server = await start({ ...spec, prefix: '/v1', timeoutMs: 120_000, stdout: log.fd });
    return { ...server, stop: async () => (await server.stop(), log.remove()) };
  } catch (error) {
    log.remove();
    throw error;
  }
}

/** json-server on a new db.json of the 50 pets in `dir` (it writes each create back to that file); run in `dir`, where it looks for its config. */
export async function startJsonServer(dir: string): Promise<ServerProcess> {
  jsonServerFiles(dir);
  const port = await freePort();
  const bin = join(MODULES, 'json-server', 'lib', 'cli', 'bin.js');
  return startLogged({
    name: PEER_LABELS.jsonServer,
    args: [bin, 'db.json', '--routes', 'routes.json', '--host', '127.0.0.1', '--port', String(port)],
    cwd: dir,
    origin: `http://127.0.0.1:${port}`,
  });
}

/** Mockoon CLI on an environment file in `dir`; HOME is `dir` too, so that its default log file (~/.mockoon-cli/logs) stays in the run's folder. */
export async function startMockoon(dir: string): Promise<ServerProcess> {
  const environment = mockoonEnvironment(dir);
  const port = await freePort();
  const bin = join(MODULES, '@mockoon', 'cli', 'bin', 'run.js');
  return startLogged({
    name: PEER_LABELS.mockoon,
    args: [bin, 'start', '--data', environment, '--port', String(port), '--hostname', '127.0.0.1'],
    cwd: dir,
    env: { HOME: dir },
    origin: `http://127.0.0.1:${port}`,
  });
}

/** WireMock standalone (`java -jar`) with its mappings in `dir`; fails at once, saying why, when there is no Java. */
export async function startWireMock(dir: string): Promise<ServerProcess> {
  if (!existsSync(JAVA)) throw new Error(`${PEER_LABELS.wireMock} needs Java: no ${JAVA} (on Debian: apt-get install openjdk-17-jre-headless)`);
  wireMockFiles(dir);
  const build = join(MODULES, 'wiremock', 'build');
  const jar = readdirSync(build).find((f) => f.endsWith('.jar'));
  if (!jar) throw new Error(`${PEER_LABELS.wireMock}: no jar in ${build}`);
  const port = await freePort();
  return startLogged({
    name: PEER_LABELS.wireMock,
    command: JAVA,
    args: ['-jar', join(build, jar), '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', dir, '--disable-banner'],
    cwd: dir,
    origin: `http://127.0.0.1:${port}`,
  });
}
