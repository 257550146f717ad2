/**
 * The notices of the libraries the bundles carry (scripts/build.mjs): the
 * package ships Express, pino, Ajv and the others inside its own files, not
 * as installed dependencies, so their licences travel in
 * `dist/THIRD-PARTY-LICENSES.md`. Read from esbuild's metafiles: every input
 * under `node_modules` names its package, whose `package.json` gives the
 * name, version and licence, and whose licence file gives the text.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package folder (relative to the root) an esbuild input path lies in, or undefined outside `node_modules`. */
function packageDirOf(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

/** A package's licence text: its LICENSE, LICENCE or COPYING file, whatever its case and extension. */
function licenseText(dir) {
  const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$|-mit)/i.test(name));
  return file === undefined ? undefined : readFileSync(join(dir, file), 'utf8').trim();
}

/**
 * Writes `outFile`: one section per bundled package (sorted by name, each
 * version once), with its licence's name and text. `metafiles` are esbuild's
 * (`metafile: true`) of every bundle the package ships.
 */
export function writeBundledLicenses(root, metafiles, outFile) {
  const dirs = new Set(
    metafiles.flatMap((metafile) =>
      Object.keys(metafile.inputs)
        .map(packageDirOf)
        .filter((dir) => dir !== undefined),
    ),
  );
  const packages = [...dirs]
    .map((dir) => join(root, dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return { name: manifest.name, version: manifest.version, license: manifest.license ?? 'see its text', text: licenseText(dir) };
    })
    .filter((pkg, i, all) => all.findIndex((other) => other.name === pkg.name && other.version === pkg.version) === i)
    .sort((a, b) =>
      a.name === b.name ? 0
      : a.name < b.name ? -1
      : 1,
    );
  const sections = packages.map(
    (pkg) => `## ${pkg.name} ${pkg.version}\n\nLicence: ${pkg.license}\n\n${pkg.text ? `\`\`\`\n${pkg.text}\n\`\`\`` : '(no licence file in the package)'}\n`,
  );
  writeFileSync(
    outFile,
    `# Libraries bundled into petstore-sandbox\n\nThe package's files carry the code of these ${packages.length} packages, at the versions\nof its lock file, under their own licences.\n\n${sections.join('\n')}`,
  );
  return packages.length;
}
