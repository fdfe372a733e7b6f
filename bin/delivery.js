#!/usr/bin/env node
'use strict';
// The `delivery` command: docs/cli.md.
const { bundled } = require('./launch');

require(bundled('cli/main.ts'))
  .main(process.argv.slice(2))
  .catch((error) => {
    process.stderr.write(`delivery: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
