#!/bin/sh
# Runs a command with the platform's malloc tuning, unless the caller set GLIBC_TUNABLES already: glibc's malloc then
# keeps 4 MiB at the top of its heap instead of handing it back to the kernel after each large free, which on a
# virtual machine that reports freed pages to its host costs a page fault each time (docs/operations.md "Memory given
# back"). The value is MALLOC_TUNABLES of src/git/git-binary.ts (a unit test keeps them equal); Node and the processes
# it starts with its environment inherit it (every git process gets it from src/git/git-binary.ts anyway). The
# `npm start`, `npm test` and bench scripts run through this.
export GLIBC_TUNABLES="${GLIBC_TUNABLES-glibc.malloc.top_pad=4194304}"
exec "$@"
