#!/usr/bin/env bash
# Install the Debian 12 packages Squall builds against (DESIGN.md §7); with --tests also
# those only the tests use (a local Slurm for the compose hooks: slurmctld, slurmd,
# slurm-client, munge; their services are not enabled, the tests start them by hand).
# Idempotent: when everything is present it prints nothing and touches nothing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libtrilinos-kokkos-dev
  openmpi-bin libopenmpi-dev
  libhdf5-openmpi-dev libnetcdf-mpi-dev
  catch2 libtomlplusplus-dev libcli11-dev
  python3 python3-netcdf4 python3-xarray python3-dask python3-matplotlib netcdf-bin
)
if [ "${1:-}" = --tests ]; then
  packages+=(slurmctld slurmd slurm-client munge curl python3-paraview)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install_deps.sh: missing packages (${missing[*]}) and no apt-get; install them by hand" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "install_deps.sh: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "install_deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
