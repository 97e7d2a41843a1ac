#!/bin/sh
# Backup of the product's Redis (the orders, the books, the push queue: everything lives there).
#
#   scripts/redis-backup.sh [FILE]        default FILE: ./redis-<UTC time>.rdb
#
# Connection: REDIS_HOST (127.0.0.1), REDIS_PORT (6379), REDIS_PASSWORD (none). With compose:
#   docker compose run --rm redis-tools /scripts/redis-backup.sh
# writes into ./backups/ on the host (see docs/backup-restore.md).
#
# `redis-cli --rdb` asks the server for a snapshot the way a replica does: one point in time (a
# fork), while the app keeps running, so every order, its hold in the books and its queued push are
# in it together or not at all. The file is checked with redis-check-rdb, written under a temporary
# name and renamed only when whole, and a .sha256 beside it lets the restore refuse a damaged copy.
set -eu

host=${REDIS_HOST:-127.0.0.1}
port=${REDIS_PORT:-6379}
out=${1:-./redis-$(date -u +%Y%m%dT%H%M%SZ).rdb}
tmp="$out.partial"

if [ -n "${REDIS_PASSWORD:-}" ]; then
  REDISCLI_AUTH=$REDIS_PASSWORD
  export REDISCLI_AUTH
fi

rm -f "$tmp"
if ! redis-cli -h "$host" -p "$port" --rdb "$tmp" >/dev/null; then
  rm -f "$tmp"
  echo "redis-backup: the snapshot from $host:$port failed (wrong REDIS_PASSWORD, or Redis unreachable)" >&2
  exit 1
fi
if command -v redis-check-rdb >/dev/null 2>&1; then
  if ! redis-check-rdb "$tmp" >/dev/null 2>&1; then
    rm -f "$tmp"
    echo "redis-backup: the snapshot does not check (redis-check-rdb); nothing written" >&2
    exit 1
  fi
fi
mv "$tmp" "$out"
(cd "$(dirname "$out")" && sha256sum "$(basename "$out")" >"$(basename "$out").sha256")
echo "redis-backup: $out ($(wc -c <"$out" | tr -d ' ') bytes)"
