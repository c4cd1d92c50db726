#!/usr/bin/env bash
# The suites that need KurrentDB, MongoDB and S3 (their adapters' contracts, the media storage's on MinIO, the differential test against MongoDB
# itself, the projection runner on every pair of stores, and the whole site on both), against fresh throwaway
# servers of `docker compose --profile scale-out-test`; PostgreSQL and Redis are the machine's, as for `npm test`.
# The hosted CI runs the same suites with service containers: .github/workflows/scale-out.yml.
set -euo pipefail
cd "$(dirname "$0")/.."

compose=(docker compose --profile scale-out-test)
"${compose[@]}" up --detach --wait --force-recreate kurrentdb-test mongodb-test minio-test
trap '"${compose[@]}" rm --stop --force kurrentdb-test mongodb-test minio-test >/dev/null' EXIT

export KURRENTDB_URL='kurrentdb://127.0.0.1:2114?tls=false'
export MONGODB_URL='mongodb://127.0.0.1:27018'
export S3_URL='http://minioadmin:minioadmin@127.0.0.1:9001'
npm run test:scale-out:suites
