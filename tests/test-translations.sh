#!/bin/sh
# test-translations.sh: the CLI speaks each language of po/LINGUAS from the
# build tree, through TERRAIN_LOCALEDIR (what `meson devenv` sets), and
# English without it. TAP.
# usage: test-translations.sh TERRAIN_CLI LOCALEDIR
set -u
cli=$1
localedir=$2
n=0
fail=0

check () {
  n=$((n + 1))
  # $1: LANGUAGE, $2: TERRAIN_LOCALEDIR or empty, $3: the first line expected
  if [ -n "$2" ]; then
    got=$(LANGUAGE=$1 LC_ALL=C.UTF-8 TERRAIN_LOCALEDIR=$2 "$cli" --help | head -n 1)
  else
    got=$(env -u TERRAIN_LOCALEDIR LANGUAGE=$1 LC_ALL=C.UTF-8 "$cli" --help | head -n 1)
  fi
  if [ "$got" = "$3" ]; then
    echo "ok $n - LANGUAGE=$1 ${2:+from the build tree}: $3"
  else
    echo "not ok $n - LANGUAGE=$1: expected '$3', got '$got'"
    fail=1
  fi
}

check de "$localedir" "Aufruf: terrain BEFEHL [OPTION …] DATEI …"
check fr "$localedir" "Usage : terrain COMMANDE [OPTION…] FICHIER…"
check en "$localedir" "Usage: terrain COMMAND [OPTION…] FILE…"
echo "1..$n"
exit $fail
