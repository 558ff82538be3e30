#!/bin/sh
# A foreign-architecture srcls as one executable, for tests that spawn SRCLS_BINARY: runs
# $SRCLS_QEMU_TARGET (a static binary, e.g. dist/srcls-linux-aarch64) under qemu-user
# ($SRCLS_QEMU, default qemu-aarch64) with the same arguments.
exec "${SRCLS_QEMU:-qemu-aarch64}" "${SRCLS_QEMU_TARGET:?set SRCLS_QEMU_TARGET to the binary to run}" "$@"
