# verdict: compile_error
# attack: writes 10,000 small files under /tmp at import (a shared directory outside its scratch space, where they would outlast it), then would answer correctly
# stopped by: Landlock (only the worker's own scratch directory is writable: the first file fails, so the import does); bubblewrap adds a private, size-capped /tmp that vanishes with the worker
# needs: L1
# base: reference
import os

_folder = f"/tmp/adv-canary-{os.getpid()}"
os.makedirs(_folder, exist_ok=True)
for _i in range(10_000):
    with open(os.path.join(_folder, str(_i)), "w") as _f:
        _f.write("x")
