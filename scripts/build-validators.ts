import fs from 'node:fs';
import path from 'node:path';
import Ajv, { _ } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { repoRoot } from '../src/paths';
import { loadBundle } from '../src/validation/registry/bundle-loader';
import { writeCodeCache } from '../src/validation/registry/code-cache';
import { loadConstraints } from '../src/validation/registry/constraints';
import { addBuiltinFormats } from '../src/validation/registry/formats';
import { inputsDigest, precompiledFile } from '../src/validation/registry/precompiled-validators';
import { defaultSchemaDir } from '../src/validation/registry/schema-registry';
import { validationDefinitions } from '../src/validation/registry/schema-prep';
import { BUILTIN_AJV_OPTIONS, VersionSchemas } from '../src/validation/registry/version-schemas';
import { SUPPORTED_K8S_VERSIONS } from '../src/validation/versions';

/** The module holding BUILTIN_FORMATS, as the generated code in `outDir` requires it. */
function formatsModule(outDir: string): string {
  const relative = path.relative(outDir, require.resolve('../src/validation/registry/formats'));
  return `./${relative.split(path.sep).join('/')}`;
}

/**
 * One CommonJS module per release with a validator for every kind it serves, generated with ajv's standalone
 * code from exactly what VersionSchemas compiles at run time (refs kept as shared functions, not inlined,
 * so PodSpec is there once). The CLI then starts without ajv compiling anything: 0.5 s less per run; V8's code cache
 * of each module is written beside it (code-cache.ts), so node does not compile the module either.
 */
function generate(version: string, schemaDir: string, outDir: string): number {
  const schemas = new VersionSchemas(loadBundle(schemaDir, version), loadConstraints(schemaDir));
  const ajv = new Ajv({
    ...BUILTIN_AJV_OPTIONS,
    inlineRefs: false,
    code: { source: true, formats: _`require(${formatsModule(outDir)}).BUILTIN_FORMATS` },
  });
  addBuiltinFormats(ajv);
  ajv.addSchema({ $id: 'k8s', definitions: validationDefinitions(schemas.definitions) });
  const refs = Object.fromEntries(schemas.kinds.map((k) => [k.definition, `k8s#/definitions/${k.definition}`]));
  const code = `${standaloneCode(ajv, refs)}\nexports.digest = ${JSON.stringify(inputsDigest(schemaDir, version))};\n`;
  // Written whole, then renamed into place: a running process that loads it meanwhile reads the old file or the new one.
  const file = precompiledFile(outDir, version);
  fs.writeFileSync(`${file}.${process.pid}.tmp`, code);
  fs.renameSync(`${file}.${process.pid}.tmp`, file);
  writeCodeCache(precompiledFile(outDir, version));
  return code.length;
}

/** `node dist/scripts/build-validators.js [OUT_DIR]`: part of `npm run build`, into dist/validators. */
function main(): void {
  const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot(), 'dist', 'validators'));
  fs.mkdirSync(outDir, { recursive: true });
  let bytes = 0;
  for (const version of SUPPORTED_K8S_VERSIONS) bytes += generate(version, defaultSchemaDir(), outDir);
  process.stdout.write(`validators for ${SUPPORTED_K8S_VERSIONS.join(', ')} written to ${outDir} (${bytes} bytes)\n`);
}

main();
