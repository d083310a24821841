# verdict: accepted
# attack: writes 10,000 small files under /tmp at import (a shared directory outside its scratch space), then answers correctly
# stopped by: bubblewrap gives the worker a private, size-capped /tmp that vanishes with it
# needs: L2
# base: reference
import os

_folder = f"/tmp/adv-canary-{os.getpid()}"
os.makedirs(_folder, exist_ok=True)
for _i in range(10_000):
    with open(os.path.join(_folder, str(_i)), "w") as _f:
        _f.write("x")
