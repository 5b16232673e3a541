#!/bin/bash
# test-bash-completion.sh: data/completions/terrain completes commands,
# subcommands, options and option values. Prints TAP.
#
# Usage: test-bash-completion.sh BASH_COMPLETION COMPLETION-SCRIPT BINDIR
#
# SPDX-License-Identifier: LGPL-2.1-or-later

main=$1
script=$2
export PATH="$3:$PATH"

if [[ ! -r $main ]]; then
    echo "1..0 # SKIP bash-completion is not installed ($main)"
    exit 0
fi
# shellcheck disable=SC1090
source "$main"
# shellcheck disable=SC1090
source "$script"

n=0
failed=0

# complete FUNCTION "COMMAND LINE" EXPECTED...: every EXPECTED word is offered.
complete_line()
{
    local function=$1 line=$2
    shift 2
    COMP_LINE=$line
    COMP_POINT=${#line}
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    "$function"

    local want missing=""
    for want in "$@"; do
        printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$want" || missing="$missing $want"
    done
    n=$((n + 1))
    if [[ -z $missing ]]; then
        echo "ok $n /Terrain/Completion/$line"
    else
        echo "not ok $n /Terrain/Completion/$line"
        echo "# missing:$missing; offered: ${COMPREPLY[*]}"
        failed=$((failed + 1))
    fi
}

echo "1..21"
complete_line _terrain "terrain va" validate
complete_line _terrain "terrain " info validate roundtrip tnt atlas hpi ota model insomniac
complete_line _terrain "terrain tnt fe" features
complete_line _terrain "terrain tnt features a" add
complete_line _terrain "terrain tnt li" lint
complete_line _terrain "terrain tnt lint --" --json --sarif --ota= --archives=
complete_line _terrain "terrain tnt pre" preview
complete_line _terrain "terrain tnt preview --" --archives= --palette= --ota= --schema= --shrink= --height-shading --water-shading --no-features --no-resources --no-starts --output=
complete_line _terrain "terrain tnt unp" unpack
complete_line _terrain "terrain tnt unpack --" --palette=
complete_line _terrain "terrain info --js" --json
complete_line _terrain "terrain validate --" --json --quiet --format= --help --version
complete_line _terrain "terrain info --format " tnt sct atlas
complete_line _terrain "terrain info --format=a" atlas
complete_line _terrain "terrain info --heightmap-" --heightmap-format=
complete_line _terrain "terrain export-heightmap --heightmap-format " gray terrain-rgb terrarium raw16
complete_line _terrain "terrain build-atlas --heightmap-format=terr" terrain-rgb terrarium
complete_line _terrain "terrain tnt heights brush --mode " raise lower smooth flatten set
complete_line _terrain "terrain hpi pack --compression " zlib lz77 none
complete_line _terrain_thumbnailer "terrain-thumbnailer -" --size= --palette= --version
complete_line _terrain_thumbnailer "terrain-thumbnailer -s " 128 256

exit $((failed > 0))
