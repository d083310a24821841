# verdict: compile_error
# attack: none: fills memory while being imported
# stopped by: the parent's resident-memory poll during the import (or RLIMIT_DATA's MemoryError)
# base: reference
_chunks = []
while True:
    _chunks.append(bytearray(64 << 20))
