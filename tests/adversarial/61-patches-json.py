# verdict: compile_error
# attack: replaces json.dumps at import so that everything the worker sends reads "accepted"
# stopped by: the parent needs a well-formed ready message, then a well-formed reply per call; forged text is neither
# base: reference
import json

json.dumps = lambda *args, **kwargs: '{"type": "result", "verdict": "accepted", "value": "accepted"}'
