'use strict';
/**
 * jest's module runtime, with two caches that last for the jest process rather than one test file (jest.config.js
 * `runtime`, loaded once in each jest process). A jest worker runs dozens of test files, each with a module registry of
 * its own, so the same few thousand modules (the Temporal SDK and its protobuf tables, fastify, zod…) were read from
 * disk and compiled again for every file.
 * - V8's code cache: the first compile of a module in a process keeps the cache, and later files compile from it.
 * - The sources of installed packages (under node_modules, which nothing changes during a run): read once per
 *   process. jest reads every module's source for each file before it looks up the transform it already holds.
 *
 * Only loading changes: each file still gets its own module registry and evaluates every module afresh.
 */
const path = require('node:path');
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/** Per module file: the source the cache was made from (a changed source compiles afresh) and V8's cached data. */
const codeCache = new Map();
const compileFunction = vm.compileFunction;

// jest-runtime compiles through the public `vm.compileFunction` (Node's own module loader does not), so that is where
// the cache goes.
vm.compileFunction = function compileFunctionWithCodeCache(code, params, options) {
  const filename = options?.filename;
  if (typeof filename !== 'string' || options.cachedData !== undefined) return compileFunction(code, params, options);
  const hit = codeCache.get(filename);
  if (hit?.code === code) {
    const fn = compileFunction(code, params, { ...options, cachedData: hit.data });
    if (fn.cachedDataRejected) codeCache.delete(filename);
    return fn;
  }
  const fn = compileFunction(code, params, { ...options, produceCachedData: true });
  if (fn.cachedData) codeCache.set(filename, { code, data: fn.cachedData });
  return fn;
};

const INSTALLED = `${path.sep}node_modules${path.sep}`;
/** Sources of installed packages, as jest's per-file cache returns them. */
const installedSources = new Map();

class CachingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    // jest's per-file source cache: the same object its transformer reads through, so it is wrapped in place. Its
    // buffers serve only wasm and raw-bytes imports, so only the decoded sources are shared.
    const files = this.fileCache;
    const readFile = files.readFile.bind(files);
    files.readFile = (filename) => {
      if (!filename.includes(INSTALLED)) return readFile(filename);
      let source = installedSources.get(filename);
      if (source === undefined) {
        source = readFile(filename);
        installedSources.set(filename, source);
      }
      return source;
    };
  }
}

module.exports = { __esModule: true, default: CachingRuntime };
