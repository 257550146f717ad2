#!/usr/bin/env node
import { ConfigError, loadConfig, OPTIONS } from './config.js';
import { PACKAGE_VERSION as version } from './paths.js';
import { startSandbox, type Logger } from './sandbox.js';
import { StoreError } from './store/types.js';


const usage = `Usage: petstore-sandbox [options]

Serves the Pet Store interface under /v1.

Options (each also from an environment variable):
${Object.entries(OPTIONS)
  .map(([name, o]) => `  --${name.padEnd(14)} ${o.help} (env ${o.env}, default ${o.default})`)
  .join('\n')}
  -h, --help         this text
  --version          the sandbox's version
`;

const logger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error instanceof Error ? error.stack : (error ?? '')),
};

async function main(): Promise<number> {
  let loaded;
  try {
    loaded = loadConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`petstore-sandbox: ${error.message}\n\n${usage}`);
    return 2;
  }
  const { config, positionals } = loaded;
  if (loaded.help) {
    console.log(usage);
    return 0;
  }
  if (loaded.version) {
    console.log(version);
    return 0;
  }
  if (positionals.length > 0) {
    console.error(`petstore-sandbox: unknown command '${positionals[0]}'\n\n${usage}`);
    return 2;
  }

  let sandbox;
  try {
    sandbox = await startSandbox(config, logger);
  } catch (error) {
    if (error instanceof StoreError) {
      console.error(`petstore-sandbox: ${error.message}`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`petstore-sandbox: port ${config.port} on ${config.host} is already in use (choose another with --port).`);
      return 1;
    }
    throw error;
  }
  console.log(`Pet Store sandbox ${version} (${config.mode} mode) listening on ${sandbox.baseUrl}`);
  console.log(`  data file: ${config.dataFile}`);
  console.log(`  API key:   Authorization: Bearer ${config.apiKeys[0]}`);
  console.log(`  try:       curl -H 'Authorization: Bearer ${config.apiKeys[0]}' ${sandbox.baseUrl}/pets`);

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: flushing and shutting down`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await sandbox.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('petstore-sandbox: unexpected failure', error);
    process.exitCode = 1;
  },
);
