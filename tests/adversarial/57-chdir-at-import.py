# verdict: accepted
# attack: none: changes directory to / at import, then answers correctly
# stopped by: nothing to stop: the worker opens nothing by a relative path afterwards
# base: reference
import os

os.chdir("/")
