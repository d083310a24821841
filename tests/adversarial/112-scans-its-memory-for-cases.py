# verdict: wrong_answer
# attack: measures nothing: reads its own memory through /proc/self/mem, at import and in every call, for the text of case specifications (a setup that verified every case, a request carrying a whole case), finds its own case by rebuilding its inputs with the judge's own builder, and returns a later call's literal arguments, the reference's outputs
# stopped by: no worker that runs submission code is ever sent a case: checksums are verified by a checker that never imports a submission, and a call's request holds that call alone
# problem: training-diagnostics
# base: reference
import json
import re

import torch

KEYS = {"compute_activation_stats": ("mean", "std", "dead_fraction"), "compute_gradient_stats": ("mean", "std", "norm")}
REGION_CAP = 1 << 30
DECODER = json.JSONDecoder()


def _memory():
    try:
        maps, mem = open("/proc/self/maps"), open("/proc/self/mem", "rb", 0)
    except OSError:
        return
    with maps, mem:
        for line in maps:
            span, perms = line.split()[:2]
            start, end = (int(v, 16) for v in span.split("-"))
            if perms.startswith("rw") and end - start <= REGION_CAP:
                try:
                    mem.seek(start)
                    yield mem.read(end - start)
                except (OSError, ValueError, OverflowError):
                    pass


def _specs():
    """Every case specification whose JSON text is somewhere in this process's memory."""
    found = []
    for chunk in _memory():
        for match in re.finditer(rb'\{"objects": \{', chunk):
            try:
                spec, _ = DECODER.raw_decode(chunk[match.start():match.start() + (1 << 20)].decode("ascii", "replace"))
            except ValueError:
                continue
            if isinstance(spec, dict) and isinstance(spec.get("calls"), list):
                found.append(spec)
    return found


AT_IMPORT = _specs()


def _stolen(method, model, x):
    from judge.package.build import build_objects

    for spec in AT_IMPORT + _specs():
        try:
            if not torch.equal(build_objects({"x": spec["objects"]["x"]})["x"], x):
                continue
        except Exception:  # noqa: BLE001
            continue
        for call in spec["calls"]:
            if call["method"] == "diagnose" and len(call["args"]) == 2:
                return call["args"][0 if method == "compute_activation_stats" else 1]
    layers = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    return [dict.fromkeys(KEYS[method], 0.0)] * layers


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return _stolen("compute_activation_stats", model, x)

    def compute_gradient_stats(self, model, x, y):
        return _stolen("compute_gradient_stats", model, x)
