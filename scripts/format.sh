#!/usr/bin/env bash
# Formats the tree's C++ and CUDA sources with .clang-format (Debian's clang-format 14).
#   scripts/format.sh           rewrite the files in place
#   scripts/format.sh --check   change nothing; list the files that differ, exit 1 if any
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
command -v clang-format >/dev/null || { echo "format.sh: clang-format is missing (scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' 2>/dev/null ||
                     find common shm job gpu-server synth-worker client tests bench \
                       -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh')
if [[ "${1:-}" == --check ]]; then
  # One clang-format per batch of files; each unformatted place is a warning naming its file.
  mapfile -t bad < <(printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 64 clang-format --dry-run 2>&1 |
                     sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
  if ((${#bad[@]})); then
    printf 'not formatted (scripts/format.sh fixes them):\n' >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files formatted"
else
  printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 64 clang-format -i
fi
