#!/bin/sh
# Restores a backup made by scripts/redis-backup.sh into a running, EMPTY Redis.
#
#   scripts/redis-restore.sh FILE
#
# Connection as the backup: REDIS_HOST (127.0.0.1), REDIS_PORT (6379), REDIS_PASSWORD (none).
# With compose: docker compose stop app, then
#   docker compose run --rm redis-tools /scripts/redis-restore.sh /backups/FILE
#
# Stop every app process first: an app writing while the restore runs would mix its new state with
# the old. The target must hold no key (FLUSHALL it on purpose, or start a fresh volume): the
# restore refuses otherwise, so a mistyped host never overwrites live books.
#
# How: the file is loaded into a temporary redis-server of its own (a unix socket in a temporary
# directory, no TCP port, no persistence), and that server MIGRATEs every key to the target (COPY:
# the temporary one keeps its copy; TTLs kept). The target stays up with its own persistence (AOF)
# on, so what is restored is on its disk as it arrives. Needs redis-server and redis-cli (the
# redis image has both).
set -eu

file=${1:?usage: redis-restore.sh FILE (a .rdb made by redis-backup.sh)}
host=${REDIS_HOST:-127.0.0.1}
port=${REDIS_PORT:-6379}
[ -f "$file" ] || { echo "redis-restore: no file $file" >&2; exit 1; }

if [ -f "$file.sha256" ]; then
  want=$(cut -d' ' -f1 <"$file.sha256")
  got=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$want" != "$got" ]; then
    echo "redis-restore: $file does not match $file.sha256: a damaged copy, nothing restored" >&2
    exit 1
  fi
fi

# The password goes to the target only (the temporary server has none).
target() { REDISCLI_AUTH=${REDIS_PASSWORD:-} redis-cli -h "$host" -p "$port" "$@"; }
unset REDISCLI_AUTH

keys=$(target DBSIZE) || { echo "redis-restore: $host:$port does not answer (or a wrong REDIS_PASSWORD)" >&2; exit 1; }
if [ "$keys" != "0" ]; then
  echo "redis-restore: $host:$port holds $keys keys; restore only into an empty Redis (stop the app, then FLUSHALL on purpose)" >&2
  exit 1
fi

work=$(mktemp -d)
sock="$work/redis.sock"
cp "$file" "$work/backup.rdb"
cleanup() {
  redis-cli -s "$sock" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

redis-server --port 0 --unixsocket "$sock" --dir "$work" --dbfilename backup.rdb \
  --appendonly no --save "" --daemonize yes --logfile "$work/redis.log" >/dev/null
i=0
until redis-cli -s "$sock" PING 2>/dev/null | grep -q PONG; do
  i=$((i + 1))
  if [ "$i" -gt 600 ]; then
    echo "redis-restore: the temporary server did not load $file:" >&2
    tail -5 "$work/redis.log" >&2
    exit 1
  fi
  sleep 0.1
done
# A server still loading answers PING with LOADING: wait until it answers DBSIZE.
until redis-cli -s "$sock" DBSIZE >/dev/null 2>&1; do sleep 0.1; done
want=$(redis-cli -s "$sock" DBSIZE)

auth=""
[ -n "${REDIS_PASSWORD:-}" ] && auth="AUTH"
# Batches of 100 keys per MIGRATE; a key name is one line of --scan's output.
redis-cli -s "$sock" --scan | while IFS= read -r first; do
  set -- "$first"
  n=1
  while [ "$n" -lt 100 ] && IFS= read -r key; do
    set -- "$@" "$key"
    n=$((n + 1))
  done
  if [ -n "$auth" ]; then
    reply=$(redis-cli -s "$sock" MIGRATE "$host" "$port" "" 0 60000 COPY AUTH "$REDIS_PASSWORD" KEYS "$@")
  else
    reply=$(redis-cli -s "$sock" MIGRATE "$host" "$port" "" 0 60000 COPY KEYS "$@")
  fi
  if [ "$reply" != "OK" ]; then
    echo "redis-restore: MIGRATE failed: $reply" >&2
    exit 1
  fi
done

got=$(target DBSIZE)
if [ "$got" != "$want" ]; then
  echo "redis-restore: $want keys in the backup, $got in $host:$port after the copy" >&2
  exit 1
fi
echo "redis-restore: $got keys restored into $host:$port from $file"
