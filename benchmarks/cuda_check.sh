#!/usr/bin/env bash
# CUDA expectations for every bundled problem, in one run on a machine with a GPU (at most ~8 minutes).
#
#   OUT=/some/folder bash benchmarks/cuda_check.sh            # on the GPU machine, from the repository root
#   CUDA_CHECK_DEVICE=cpu OUT=/tmp/x bash benchmarks/cuda_check.sh   # dry rehearsal of the whole flow on a CPU
#   CUDA_CHECK_SLUGS="a b" limits it to some problems; CUDA_CHECK_INSTALL=0 skips the install
#
# Steps: install the project (no network needed when torch, numpy and jinja2 are already there); print the GPU,
# driver and torch; `judge gen <slug> --device cuda` for every bundled problem (TF32 off, float32 on the GPU);
# print the fields whose CUDA expectation differs from the CPU one, by how much; `judge verify --device cuda`
# (every declared submission judged on the GPU); hostile submissions that concern the device
# (benchmarks/device_attacks.py); then copy the case
# files that now carry `cuda` expectations and a summary to $OUT, from where they are committed.
# Every step runs even when an earlier one fails; the exit status says whether all of them passed.
set -uo pipefail
cd "$(dirname "$0")/.."

DEVICE="${CUDA_CHECK_DEVICE:-cuda}"
OUT="${OUT:-$PWD/cuda-check}"
PY="${PYTHON:-python3}"
STEP_TIMEOUT="${CUDA_CHECK_STEP_TIMEOUT:-240}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NVIDIA_TF32_OVERRIDE=0
unset TORCH_ALLOW_TF32_CUBLAS_OVERRIDE
failed=()

LOG="$OUT/log.txt"      # the GPU tool brings back at most 8 files: one log, the summary, the cases
DIFF="$(mktemp)"
: > "$LOG"

step() {  # step NAME COMMAND...: run it with a time limit, append it to the log, remember a failure
    local name="$1"; shift
    echo "== $name: $*" | tee -a "$LOG"
    if ! timeout "$STEP_TIMEOUT" "$@" 2>&1 | tee -a "$LOG"; then
        failed+=("$name")
        echo "!! $name failed"
    fi
}

if ! "$PY" -c "import judge" 2>/dev/null || [ "${CUDA_CHECK_INSTALL:-1}" = 1 ]; then
    "$PY" -m pip install -q --no-deps --no-build-isolation -e . || "$PY" -m pip install -q -e . || exit 2
fi

{
    echo "date: $(date -u +%FT%TZ)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    "$PY" -c "import torch; print('torch', torch.__version__, '| cuda', torch.version.cuda, '| available', torch.cuda.is_available())"
} 2>&1 | tee "$OUT/machine.txt" | tee -a "$LOG"

SLUGS="${CUDA_CHECK_SLUGS:-$("$PY" -c "from judge.package.problem import available; print(' '.join(available()))")}"
for slug in $SLUGS; do
    step "gen-$slug" "$PY" -m judge gen "$slug" --device "$DEVICE"
done
step differences "$PY" benchmarks/cuda_differences.py --device "$DEVICE" --output "$DIFF" $SLUGS
step verify "$PY" -m judge verify --device "$DEVICE" $SLUGS
step attacks "$PY" benchmarks/device_attacks.py --device "$DEVICE"

CASES="$("$PY" -c "
import os, sys
from judge.package.problem import find_problem
print(' '.join(os.path.relpath(find_problem(s).root / 'cases') for s in sys.argv[1:]))" $SLUGS)"
tar -czf "$OUT/cases.tar.gz" $CASES || failed+=("archive")
{
    echo "# CUDA check ($DEVICE)"
    cat "$OUT/machine.txt"
    echo
    cat "$DIFF"
    echo
    echo "failed steps: ${failed[*]:-none}"
} > "$OUT/summary.md"
rm -f "$OUT/machine.txt" "$DIFF"
cat "$OUT/summary.md"
[ ${#failed[@]} -eq 0 ]
