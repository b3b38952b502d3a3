#!/usr/bin/env bash
# Fetches the embedded ClickHouse engine (chDB's libchdb.so) with the ordinary npm client,
# verifies the registry's integrity hash, and unpacks it into a cache outside the repo.
# Prints the path of libchdb.so on success. Idempotent: a verified cache is reused.
set -euo pipefail

CHDB_PACKAGE="@chdb/lib-linux-x64-gnu"
CHDB_VERSION="${CHDB_VERSION:-26.5.3}"
CHDB_INTEGRITY="sha512-fPrLmRt5Moor9yGz4mazbrNje4t7X9KB2mTGkXFWRxRBs2iKy8yh6jx11xsa0Qr3iDFMU/yHqd+bVdYJXu3QaQ=="
CACHE_ROOT="${CAPLAB_CHDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/caplab/chdb}"
TARGET="$CACHE_ROOT/$CHDB_VERSION"
LIB="$TARGET/libchdb.so"

if [[ -f "$TARGET/.verified" && -f "$LIB" ]]; then
  echo "$LIB"
  exit 0
fi

command -v npm >/dev/null || { echo "fetch-chdb: npm is required (apt-get install npm)" >&2; exit 1; }
mkdir -p "$TARGET"
work=$(mktemp -d "$CACHE_ROOT/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "fetch-chdb: npm pack $CHDB_PACKAGE@$CHDB_VERSION (about 150 MB download)" >&2
tarball=$(cd "$work" && npm pack --silent "$CHDB_PACKAGE@$CHDB_VERSION" | tail -n 1)
actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | base64 -w0)"
if [[ "$actual" != "$CHDB_INTEGRITY" ]]; then
  echo "fetch-chdb: integrity mismatch for $tarball: expected $CHDB_INTEGRITY, got $actual" >&2
  exit 1
fi
tar -xzf "$work/$tarball" -C "$work" package/libchdb.so
mv "$work/package/libchdb.so" "$LIB"
echo "$CHDB_INTEGRITY" > "$TARGET/.verified"
echo "$LIB"
