# verdict: wrong_answer
# attack: measures nothing: at import, reads the memory of every other process it can see (/proc/PID/mem) for the text of case specifications, where the checker that verified every case's build holds them all, finds its own case by rebuilding its inputs, and returns a later call's literal arguments
# stopped by: the checker ends before any worker of its judge imports a submission and makes itself non-dumpable; Landlock refuses access to another domain's /proc entries; under bubblewrap no other process is visible
# needs: L1
# problem: training-diagnostics
# base: reference
import json
import os
import re

import torch

KEYS = {"compute_activation_stats": ("mean", "std", "dead_fraction"), "compute_gradient_stats": ("mean", "std", "norm")}
DECODER = json.JSONDecoder()


def _specs_of(pid):
    found = []
    try:
        with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
            for line in maps:
                span, perms = line.split()[:2]
                start, end = (int(v, 16) for v in span.split("-"))
                if not perms.startswith("rw") or end - start > (1 << 30):
                    continue
                try:
                    mem.seek(start)
                    chunk = mem.read(end - start)
                except (OSError, ValueError, OverflowError):
                    continue
                for match in re.finditer(rb'\{"objects": \{', chunk):
                    try:
                        found.append(DECODER.raw_decode(chunk[match.start():match.start() + (1 << 20)].decode(
                            "ascii", "replace"))[0])
                    except ValueError:
                        pass
    except OSError:
        pass
    return found


def _others():
    try:
        return [pid for pid in os.listdir("/proc") if pid.isdigit() and int(pid) != os.getpid()]
    except OSError:
        return []


STOLEN = [spec for pid in _others() for spec in _specs_of(pid)]


def _stolen(method, model, x):
    from judge.package.build import build_objects

    for spec in STOLEN:
        try:
            if torch.equal(build_objects({"x": spec["objects"]["x"]})["x"], x):
                call = next(c for c in spec["calls"] if c["method"] == "diagnose")
                return call["args"][0 if method == "compute_activation_stats" else 1]
        except Exception:  # noqa: BLE001
            continue
    layers = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    return [dict.fromkeys(KEYS[method], 0.0)] * layers


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return _stolen("compute_activation_stats", model, x)

    def compute_gradient_stats(self, model, x, y):
        return _stolen("compute_gradient_stats", model, x)
