# verdict: compile_error
# attack: none: crashes the interpreter (SIGSEGV) while being imported
# stopped by: the parent sees the worker die before it is ready
# base: reference
import ctypes

ctypes.string_at(0)
