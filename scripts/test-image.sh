#!/usr/bin/env bash
# npm run test:image: the image as people deploy it, tested. Builds the Dockerfile with podman, boots the image on
# this machine's PostgreSQL and Redis (host network, a fresh database, a free port), checks how it runs (non-root,
# started by node, JSON logs, its HEALTHCHECK), drives a core flow over HTTP (scripts/test-image.ts: the first account
# becomes admin, posts, the feed shows the post), then removes the container and what it wrote.
#
# No image registry is reachable here, so the base image the Dockerfile names (node:<major>-<suite>[-slim]) is
# stood in for by a local one: a Debian rootfs from mmdebstrap (this machine's apt sources) with this machine's node
# and npm, the CA certificates and registry npm trusts here, and a `node` user (uid 1000), as the real image has.
# It is built once and kept (a label records what it was made from; it is remade when that changes).
#
# Needs podman and mmdebstrap (Debian: apt-get install podman runc mmdebstrap uidmap fuse-overlayfs slirp4netns),
# psql and redis-cli, and PostgreSQL and Redis on 127.0.0.1. Environment:
#   TEST_IMAGE_KEEP=1          leave the container running (and its database) for a look after a failure
#   TEST_IMAGE_REBUILD_BASE=1  remake the stand-in base image even when it is up to date
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
say() { printf 'test:image [%3ds] %s\n' "$((SECONDS - started))" "$*"; }
die() { printf 'test:image FAILED: %s\n' "$*" >&2; exit 1; }

for tool in podman mmdebstrap runc psql redis-cli node; do
  command -v "$tool" >/dev/null || die "$tool is not installed (Debian: apt-get install podman runc mmdebstrap uidmap fuse-overlayfs slirp4netns)"
done
pg_isready -q -h 127.0.0.1 -p 5432 || die 'PostgreSQL does not answer on 127.0.0.1:5432'
redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || die 'Redis does not answer on 127.0.0.1:6379'

# Podman's own settings, for every podman command below (build, run, exec, healthcheck). Podman asks for open-files
# and process limits above what this machine allows (and the container fails to start): ask for the machine's hard
# limits, processes also capped at pid_max, as the sandbox does. crun cannot run on the hybrid cgroup layout of this
# kind of machine (cgroup v1 with a v2 hierarchy beside it); runc can.
cache=/var/tmp/bhc-test-image
mkdir -p "$cache"
nofile=$(ulimit -Hn)
[[ $nofile == unlimited ]] && nofile=1048576
nproc=$(ulimit -Hu)
pid_max=$(cat /proc/sys/kernel/pid_max)
[[ $nproc == unlimited || $nproc -gt $pid_max ]] && nproc=$pid_max
runtime=runc
command -v runc >/dev/null || die 'runc is not installed (Debian: apt-get install runc)'
printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=%s:%s"]\n\n[engine]\nruntime = "%s"\n' "$nofile" "$nofile" "$nproc" "$nproc" "$runtime" >"$cache/containers.conf"
export CONTAINERS_CONF=$cache/containers.conf

# ---------------------------------------------------------------------------------------------------------------
# The stand-in base image.
# The FROM lines' images, less the Dockerfile's own stages.
base=$(awk 'toupper($1) == "FROM" { if (!($2 in stage)) print $2; if (toupper($3) == "AS") stage[$4] = 1 }' Dockerfile | sort -u)
[[ $(wc -l <<<"$base") == 1 ]] || die "the Dockerfile names more than one base image: $(tr '\n' ' ' <<<"$base")"
[[ $base =~ ^node:([0-9]+)-([a-z]+)(-slim)?$ ]] || die "cannot stand in for $base: expected node:<major>-<debian suite>[-slim]"
node_major=${BASH_REMATCH[1]}
suite=${BASH_REMATCH[2]}
[[ $(node --version) == v$node_major.* ]] || die "the Dockerfile's base is $base but this machine has node $(node --version): one Node version everywhere (package.json engines, Dockerfile, CI)"

node_bin=$(readlink -f "$(command -v node)")
npm_dir=$(readlink -f "$(dirname "$(readlink -f "$(command -v npm)")")/..")
[[ -f $npm_dir/package.json ]] || die "cannot find npm's installation (looked in $npm_dir)"
registry=$(npm config get registry)
cafile=$(npm config get cafile)
[[ $cafile == null || $cafile == undefined || -z $cafile ]] && cafile=/etc/ssl/certs/ca-certificates.crt
[[ -f $cafile ]] || die "no CA bundle for npm at $cafile"
sources=()
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  if [[ -f $file ]] && grep -Eq '^[[:space:]]*(deb |URIs:).*debian' "$file"; then sources+=("$file"); fi
done
((${#sources[@]})) || die 'no Debian apt sources found in /etc/apt for mmdebstrap'

recipe=2 # raise when the stand-in's recipe below changes
key=$( { echo "recipe $recipe $suite"; node --version; grep '"version"' "$npm_dir/package.json"; echo "$registry"; sha256sum <"$cafile"; cat "${sources[@]}"; } | sha256sum | cut -c1-32)
have=$(podman image inspect --format '{{ index .Labels "bhc.stand-in" }}' "$base" 2>/dev/null || true)
if [[ $have == "$key" && -z ${TEST_IMAGE_REBUILD_BASE:-} ]]; then
  say "stand-in for $base is up to date"
else
  say "building a stand-in for $base: Debian $suite (mmdebstrap, ${sources[*]}) with node $(node --version) and npm $(npm --version)"
  work=$(mktemp -d /var/tmp/bhc-stand-in.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nregistry=%s\nupdate-notifier=false\nfund=false\naudit=false\n' "$registry" >"$work/npmrc"
  cp "$cafile" "$work/ca-certificates.crt"
  mmdebstrap --quiet --variant=minbase --format=tar --skip=output/dev \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="mkdir -p \"\$1/usr/local/bin\" \"\$1/usr/local/lib/node_modules\" \"\$1/usr/local/etc\" \"\$1/etc/ssl/certs\"" \
    --customize-hook="cp '$node_bin' \"\$1/usr/local/bin/node\"" \
    --customize-hook="cp -a '$npm_dir' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook="cp '$work/npmrc' \"\$1/usr/local/etc/npmrc\"" \
    --customize-hook="cp '$work/ca-certificates.crt' \"\$1/etc/ssl/certs/ca-certificates.crt\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 node' \
    --customize-hook='chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    --customize-hook='chroot "$1" node --version >/dev/null' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "$suite" "$work/rootfs.tar" "${sources[@]}" || die "mmdebstrap could not make a Debian $suite rootfs"
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$(node --version | cut -c2-)" \
    --change 'CMD ["node"]' \
    --change "LABEL bhc.stand-in=$key" \
    "$work/rootfs.tar" "$base" >/dev/null || die "podman import of the stand-in failed"
  podman tag "$base" "docker.io/library/$base"
  rm -rf "$work"
  trap - EXIT
  say "stand-in for $base built"
fi

# ---------------------------------------------------------------------------------------------------------------
# The image.
image=localhost/broadcast-history-community:test
say "building the image from the Dockerfile ($image)"
# Docker's format: OCI images have no HEALTHCHECK. Host network: the build's npm reaches the registry as npm does here.
build=(podman build --pull=never --format docker --network host --layers)
"${build[@]}" --tag "$image" . >"$cache/build.log" 2>&1 ||
  { tail -n 60 "$cache/build.log" >&2; die "podman build failed (whole log: $cache/build.log)"; }
# Each stage's image gets a tag of its own too (all cached: no work), so that removing the untagged images keeps this
# build's whole cache (the npm ci of an unchanged lock file above all) and drops only what earlier builds left.
for stage in $(awk 'toupper($1) == "FROM" && toupper($3) == "AS" { print $4 }' Dockerfile); do
  "${build[@]}" --target "$stage" --tag "$image-$stage" . >>"$cache/build.log" 2>&1 || die "podman build --target $stage failed ($cache/build.log)"
done
podman image prune --force >/dev/null 2>&1 || true
say "image built: $(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%d MB", $1 / 1e6 }')"

user=$(podman image inspect --format '{{.Config.User}}' "$image")
[[ -n $user && $user != root && $user != 0 && $user != 0:* ]] || die "the image runs as root (USER is '$user')"
cmd=$(podman image inspect --format '{{join .Config.Cmd " "}}' "$image")
entrypoint=$(podman image inspect --format '{{join .Config.Entrypoint " "}}' "$image")
[[ -z $entrypoint && $cmd == node\ * ]] || die "the image should start node itself, not '$entrypoint $cmd'"
healthcheck=$(podman image inspect --format '{{if .Config.Healthcheck}}{{join .Config.Healthcheck.Test " "}}{{end}}' "$image")
[[ $healthcheck == *readyz* ]] || die "the image has no HEALTHCHECK on /readyz (has: '$healthcheck')"
missing=$(podman run --rm --network none --no-healthcheck --entrypoint sh "$image" -c '
  for path in dist/client/index.html dist/client/theme.js main/main.ts node_modules/tsx/package.json; do [ -f "$path" ] || echo "lacks /app/$path"; done
  [ ! -e node_modules/vite ] || echo "holds the development packages (node_modules/vite)"') || die 'cannot look into the image'
[[ -z $missing ]] || die "the image $missing"

# ---------------------------------------------------------------------------------------------------------------
# The image booted on this machine's PostgreSQL and Redis.
run_id=$(date +%s)_$$
db=bhc_image_test_$run_id
prefix=bhc_image_test_$run_id
container=bhc-image-test-$run_id
port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
url=http://127.0.0.1:$port
cleanup() {
  local status=$?
  if [[ -n ${TEST_IMAGE_KEEP:-} ]]; then
    say "kept: container $container at $url, database $db, Redis prefix $prefix"
    return
  fi
  podman rm --force --time 10 "$container" >/dev/null 2>&1 || true
  psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -h 127.0.0.1 --scan --pattern "$prefix*" | xargs -r -n 500 redis-cli -h 127.0.0.1 del >/dev/null 2>&1 || true
  exit "$status"
}
trap cleanup EXIT
env=(
  --env NODE_ENV=production --env PORT="$port" --env HOST=127.0.0.1 --env PUBLIC_URL="$url"
  --env DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" --env REDIS_URL=redis://127.0.0.1:6379 --env REDIS_PREFIX="$prefix"
  --env SESSION_SECRET="$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64url"))')"
  --env EMAIL_CLAIM_SECRET="$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64url"))')"
  --env SMTP_SINK_IN_PRODUCTION=true --env SMTP_SINK_PORT=0
)

say "creating its database $db as the compose stack does (docker/create-database.ts)"
podman run --rm --network host --no-healthcheck "${env[@]}" "$image" node --import tsx docker/create-database.ts ||
  die 'docker/create-database.ts failed in the image'
[[ $(psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT count(*) FROM pg_database WHERE datname = '$db'") == 1 ]] ||
  die "docker/create-database.ts did not create the database $db"

say "booting the image at $url (container $container)"
# Without systemd podman cannot time the health checks (it says so on stderr); this test runs the check itself.
podman run --detach --name "$container" --network host "${env[@]}" "$image" >/dev/null 2>"$cache/run.log" ||
  { cat "$cache/run.log" >&2; die 'podman run failed'; }
deadline=$((SECONDS + 180))
until node -e "fetch('$url/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; do
  if [[ $(podman inspect --format '{{.State.Running}}' "$container") != true ]]; then
    podman logs "$container" 2>&1 | tail -n 40 >&2
    die "the container stopped before it was ready (exit code $(podman inspect --format '{{.State.ExitCode}}' "$container"))"
  fi
  if ((SECONDS > deadline)); then
    podman logs "$container" 2>&1 | tail -n 40 >&2
    die "$url/readyz did not answer 200 within 180 s"
  fi
  sleep 1
done
say "ready"

[[ $(podman exec "$container" id -u) != 0 ]] || die 'the site runs as root in the container'
podman healthcheck run "$container" >/dev/null || die "the image's HEALTHCHECK says unhealthy while /readyz answers 200"
node --import tsx scripts/test-image.ts "$url" "$prefix" || { podman logs "$container" 2>&1 | tail -n 40 >&2; die 'the core flow failed against the image'; }

# Logs: JSON lines on stdout (for a log collector), and nothing from npm.
podman logs "$container" >"$cache/stdout.log" 2>"$cache/stderr.log"
node -e '
  const lines = require("node:fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
  const bad = lines.filter((line) => { try { return typeof JSON.parse(line) !== "object"; } catch { return true; } });
  if (lines.length === 0) { console.error("the site logged nothing on stdout"); process.exit(1); }
  if (bad.length) { console.error(`lines on stdout that are not JSON:\n${bad.slice(0, 10).join("\n")}`); process.exit(1); }
' "$cache/stdout.log" || die "the site's log is not JSON lines (stdout: $cache/stdout.log)"
! grep -qi 'npm notice\|npm warn' "$cache/stdout.log" "$cache/stderr.log" || die 'npm printed notices in the running site'
[[ ! -s $cache/stderr.log ]] || { say "the site wrote to stderr:"; cat "$cache/stderr.log"; }

say "stopping the container (SIGTERM)"
podman stop --time 20 "$container" >/dev/null 2>>"$cache/run.log"
[[ $(podman inspect --format '{{.State.ExitCode}}' "$container") == 0 ]] || die "the site did not close cleanly on SIGTERM (exit code $(podman inspect --format '{{.State.ExitCode}}' "$container"))"
say "passed: the image builds, boots as a non-root node process, is healthy, serves the core flow, logs JSON and stops cleanly"
