# verdict: accepted
# attack: leaves files in /dev/shm and /var/tmp at import (shared places that outlive the worker), then answers correctly
# stopped by: bubblewrap: /dev is private and /var is not in the view; below it, Landlock (nothing outside the scratch directory is writable)
# needs: L1
# base: reference
import os

for _folder in ("/dev/shm", "/var/tmp"):
    try:
        with open(os.path.join(_folder, f"adv-canary-{os.getpid()}"), "w") as _f:
            _f.write("left behind")
    except OSError:
        pass
