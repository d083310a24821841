# verdict: compile_error
# attack: os._exit(0) at import, skipping every handler
# stopped by: the parent needs an explicit ready message; an exit status means nothing
# base: reference
import os

os._exit(0)
