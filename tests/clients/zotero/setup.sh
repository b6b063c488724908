#!/usr/bin/env bash
# Assemble Zotero's translation-server, with the translators, at the commits pinned below,
# into tests/clients/zotero/build/ (git-ignored) for tests/test_zotero_client.py.
#
# Nothing of Zotero's (AGPL) is kept in this repository: each run exports the pinned
# commits from git repositories of the public projects. Where they come from:
#
#   ZOTERO_MIRRORS=DIR  a folder of clones of the GitHub repositories named below, each
#                       found as DIR/zotero+NAME/repo, DIR/NAME.git or DIR/NAME (bare
#                       or not; `git clone --mirror https://github.com/zotero/NAME.git
#                       DIR/NAME.git` makes one). Needs no network but npm's registry.
#   unset               clones https://github.com/zotero/NAME.git into build/git/.
#
# Then `npm ci` installs translation-server's dependencies from its package-lock.json.
# Its one git dependency, wicked-good-xpath, is packed from the same clones.
#
# Running it again does nothing when build/ already holds these commits.
set -euo pipefail
shopt -s inherit_errexit # a failure inside "$(...)" stops the script too

# --- Pins: change a commit here and the next run rebuilds --------------------------------
TRANSLATION_SERVER=d88a8d5384456439962edfef129b14841b09af6d # 2026-04-28, v2.0.5
# translation-server's submodules, at the commits its tree records:
TRANSLATE=e0fe482b8a07e42cbf83545947382008ae7ddb82
UTILITIES=9c89b23153ce621ed0f1d581a5e32248704c6fb7
ZOTERO_SCHEMA=1f5331e902ed2b765a379b9586c65d1a192c151d
# package-lock.json's git dependency:
WICKED_GOOD_XPATH=1b88459724800c19d82020bb0eb951a3dc177989
# The translators, newer than the submodule's pin (ee1746de, 2025-11-12):
TRANSLATORS=2814370161d05d799086825fac8d499db3a33aa3 # 2026-06-26

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${ZOTERO_BUILD:-$HERE/build}
SERVER=$BUILD/translation-server
STAMP=$BUILD/.pins
PINS="$TRANSLATION_SERVER $TRANSLATE $UTILITIES $ZOTERO_SCHEMA $WICKED_GOOD_XPATH $TRANSLATORS"

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$PINS" && -d "$SERVER/node_modules" ]]; then
  echo "$SERVER"
  exit 0
fi

# The git directory holding zotero/NAME at COMMIT.
repository() {
  local name=$1 commit=$2 dir
  if [[ -n "${ZOTERO_MIRRORS:-}" ]]; then
    for dir in "$ZOTERO_MIRRORS/zotero+$name/repo" "$ZOTERO_MIRRORS/$name.git" \
      "$ZOTERO_MIRRORS/$name"; do
      if [[ -d "$dir" ]] && git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
        git -C "$dir" rev-parse --absolute-git-dir
        return
      fi
    done
    echo "no clone of zotero/$name holding $commit in ZOTERO_MIRRORS=$ZOTERO_MIRRORS" >&2
    return 1
  fi
  dir=$BUILD/git/$name.git
  [[ -d "$dir" ]] || git clone -q --bare "https://github.com/zotero/$name.git" "$dir" || return 1
  git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null ||
    git -C "$dir" fetch -q origin "$commit" || return 1
  echo "$dir"
}

# Write zotero/NAME at COMMIT into the folder DEST.
export_tree() {
  local name=$1 commit=$2 dest=$3 dir
  dir=$(repository "$name" "$commit")
  mkdir -p "$dest"
  git --git-dir="$dir" archive --format=tar "$commit" | tar -x -C "$dest"
}

rm -rf "$SERVER" "$BUILD/translators" "$STAMP"
export_tree translation-server "$TRANSLATION_SERVER" "$SERVER"
export_tree translate "$TRANSLATE" "$SERVER/modules/translate"
export_tree utilities "$UTILITIES" "$SERVER/modules/utilities"
export_tree zotero-schema "$ZOTERO_SCHEMA" "$SERVER/modules/zotero-schema"
export_tree translators "$TRANSLATORS" "$BUILD/translators"

# node-config reads config/local.json over config/default.json5.
cat >"$SERVER/config/local.json" <<EOF
{
	"translatorsDirectory": "$BUILD/translators",
	"host": "127.0.0.1"
}
EOF

# npm fetches a GitHub dependency from codeload.github.com whatever git is told, so the
# copy's package.json and lock file name a tarball packed from the clone instead.
XPATH=$(repository wicked-good-xpath "$WICKED_GOOD_XPATH")
git --git-dir="$XPATH" archive --format=tar.gz --prefix=package/ \
  -o "$BUILD/wicked-good-xpath.tgz" "$WICKED_GOOD_XPATH"
node "$HERE/local_tarball.js" "$SERVER" wicked-good-xpath "$BUILD/wicked-good-xpath.tgz"
npm ci --prefix "$SERVER" --omit=dev --no-audit --no-fund --loglevel=error >&2

echo "$PINS" >"$STAMP"
echo "$SERVER"
