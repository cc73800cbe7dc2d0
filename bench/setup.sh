#!/usr/bin/env bash
# Installs what bench/run.sh needs and the machine may lack: hyperfine and
# GNU time, from Debian's packages. kubectl is expected to be there already.
set -euo pipefail

pkgs=()
command -v hyperfine >/dev/null 2>&1 || pkgs+=(hyperfine)
[ -x /usr/bin/time ] || pkgs+=(time)

if [ "${#pkgs[@]}" -gt 0 ]; then
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update
    $sudo apt-get install -y "${pkgs[@]}"
fi

command -v hyperfine >/dev/null 2>&1 && hyperfine --version
/usr/bin/time --version 2>&1 | head -n 1
if command -v kubectl >/dev/null 2>&1; then
    kubectl version --client 2>/dev/null || true
else
    echo "setup.sh: kubectl not found: install it (it embeds kustomize); bench/run.sh needs it" >&2
    exit 1
fi
