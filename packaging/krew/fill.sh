#!/usr/bin/env bash
# Fills the krew manifest template (packaging/krew/routerctl.yaml) for one
# release and prints the manifest: @VERSION@ is the version (1.2.3),
# @REPOSITORY@ the repository's address (Cargo.toml's `repository`), and
# each @SHA256:ARCHIVE@ the SHA-256 that SHA256SUMS (sha256sum's output)
# gives ARCHIVE. Fails, printing nothing, when an archive has no sum or a
# placeholder is left.
#
#   packaging/krew/fill.sh VERSION REPOSITORY SHA256SUMS > routerctl.yaml
set -euo pipefail
if [ $# -ne 3 ]; then
    echo "usage: $0 VERSION REPOSITORY SHA256SUMS" >&2
    exit 2
fi
version=$1 repository=$2 sums=$3
template="$(dirname "$0")/routerctl.yaml"
filled=$(awk -v version="$version" -v repository="$repository" '
    # SHA256SUMS first: "HEX  NAME", or "HEX *NAME" (binary mode).
    FNR == NR { name = $2; sub(/^\*/, "", name); sum[name] = $1; next }
    # The template says what it is; the manifest does not.
    !body && /^#/ { next }
    {
        body = 1
        gsub(/@VERSION@/, version)
        gsub(/@REPOSITORY@/, repository)
        while (match($0, /@SHA256:[^@]*@/)) {
            archive = substr($0, RSTART + 8, RLENGTH - 9)
            if (!(archive in sum)) {
                print "fill.sh: " archive " is not in " FILENAME_SUMS > "/dev/stderr"
                failed = 1
                exit 1
            }
            $0 = substr($0, 1, RSTART - 1) sum[archive] substr($0, RSTART + RLENGTH)
        }
        if (index($0, "@")) {
            print "fill.sh: a placeholder is left in line " FNR " of the template: " $0 > "/dev/stderr"
            failed = 1
            exit 1
        }
        print
    }
    END { if (failed) exit 1 }
' FILENAME_SUMS="$sums" "$sums" "$template")
printf '%s\n' "$filled"
