# verdict: accepted
# attack: hard-links a file of the judge's package and the problem set into its own writable scratch directory, and appends through the link (the new name is in a writable place, the inode is the judge's); renames one out of reach too. Then it answers correctly
# stopped by: Landlock (a link or rename across directories needs the REFER right on both sides, and a worker has it nowhere but its scratch directory); bubblewrap's read-only view
# needs: L1
# base: reference
import glob
import os

import judge

_targets = [os.path.join(os.path.dirname(judge.__file__), "worker", "main.py")]
_targets += glob.glob(os.path.join(os.path.dirname(os.path.dirname(judge.__file__)), "problems", "*", "problem.toml"))
_targets += glob.glob("/tmp/pytest-of-*/*/*/problems/*/problem.toml")
for _i, _target in enumerate(_targets):
    _link = os.path.join(os.getcwd(), f"adv-link-{_i}")
    try:
        os.link(_target, _link)
        with open(_link, "a") as _f:
            _f.write("\n# adv-canary: written through a hard link\n")
    except OSError:
        pass
    try:
        os.rename(_target, _target + ".adv-canary")
    except OSError:
        pass
